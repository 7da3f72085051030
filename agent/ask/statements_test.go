package ask

import (
	"reflect"
	"testing"
)

func TestStatementsFor(t *testing.T) {
	for _, c := range []struct {
		question string
		want     statement
	}{
		{"What is the FY2018 capital expenditure amount for 3M?", cashFlowStatement},
		{"Has AMCOR's quick ratio improved or declined between FY2023 and FY2022?", balanceSheet},
		{"Does Boeing have an improving gross margin profile as of FY2022?", incomeStatement},
		{"What is Amazon's FY2017 days payable outstanding (DPO)?", balanceSheet | incomeStatement},
		{"Is Verizon a capital intensive business based on FY 2022 data?", balanceSheet | cashFlowStatement},
		{"Answer using the statement of financial position: what are total assets?", balanceSheet},
		{"Who are the primary customers of Boeing as of FY2022?", 0},
		{"Can the supplier terminate the agreement for convenience?", 0},
	} {
		if got := statementsFor(c.question); got != c.want {
			t.Errorf("statementsFor(%q) = %03b, want %03b", c.question, got, c.want)
		}
	}
}

func TestStatementOf(t *testing.T) {
	for _, c := range []struct {
		heading string
		want    statement
	}{
		{"3M Company and Subsidiaries — Consolidated Balance Shee t — Item 8. Financial Statements", balanceSheet},
		{"CONSOLIDATED STATEMENTS OF INCOME", incomeStatement},
		{"The Boeing Company and Subsidiaries — Consolidated Statements of Financial Position", balanceSheet},
		{"Exhibit 4 — Ulta Beauty, Inc. — Condensed Consolidated Statements of Cash Flows", cashFlowStatement},
		{"Consolidated Statements of Income and Comprehensive Income", incomeStatement},
		{"Consolidated Statement of Comprehensive Income", 0},
		{"NOTE 6. Supplemental Income Statement Information", 0},
		{"Index to Consolidated Financial Statements — Consolidated Statements of Operations", incomeStatement},
		{"Condensed Statements of Income (Parent Company Only)", 0},
		{"Consolidated Balance Sheets and Statements of Cash Flows", 0},
		{"Liquidity and Capital Resources", 0},
	} {
		if got := statementOf(c.heading); got != c.want {
			t.Errorf("statementOf(%q) = %03b, want %03b", c.heading, got, c.want)
		}
	}
}

func TestStatementPages(t *testing.T) {
	got := StatementPages([]string{
		"Item 8. Financial Statements — Index to Consolidated Financial Statements",
		"Acme Corp — Consolidated Statements of Operations",
		"Acme Corp — Consolidated Balance Sheets",
		"Acme Corp — Consolidated Balance Sheets (continued)",
		"NOTE 6. Supplemental Income Statement Information",
	})
	want := map[string][]int{"balance_sheet": {3, 4}, "income_statement": {2}, "cash_flow_statement": {}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("StatementPages = %v, want %v", got, want)
	}
	// A document with no statements says so, unlike one never read.
	if none := StatementPages([]string{"Risk Factors"}); none == nil || len(none["balance_sheet"]) != 0 {
		t.Fatalf("no statements: %v", none)
	}
}

func TestHasAmount(t *testing.T) {
	for l, want := range map[string]bool{
		"Annual Report for the fiscal year ended December 31, 2023": false,
		"Revenue (net sales) was $412.6 million in fiscal 2023":     true,
		"Net sales 5,000 4,500":                                     true,
		"Purchases of property and equipment (350) (300)":           true,
		"For the years 2021 and 2022":                               false,
		"Gross margin was 38.2% in 2023":                            true,
	} {
		if got := hasAmount(l); got != want {
			t.Errorf("hasAmount(%q) = %v, want %v", l, got, want)
		}
	}
}
