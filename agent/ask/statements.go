package ask

import (
	"regexp"

	"strings"
	"unicode"

	"github.com/quarry-dev/quarry/room"
)

// statement is one of the primary financial statements. Many questions
// about a company's numbers are answered by one of them, whether or not
// the question names it: a quick ratio comes from the balance sheet, a
// gross margin from the income statement, capex from the cash flow
// statement.
type statement int

const (
	balanceSheet statement = 1 << iota
	incomeStatement
	cashFlowStatement
)

// statementNames name the statements in room.DocMeta.Statements.
var statementNames = []struct {
	kind statement
	name string
}{
	{balanceSheet, "balance_sheet"},
	{incomeStatement, "income_statement"},
	{cashFlowStatement, "cash_flow_statement"},
}

// StatementPages finds the pages of a document that are its primary
// financial statements, from the pages' headings (retrieve.PageHeadings),
// for room.DocMeta.Statements. Every kind has an entry, empty when the
// document has no such page, so that a document read for statements is
// told from one processed before they were recorded (nil).
func StatementPages(headings []string) map[string][]int {
	out := map[string][]int{}
	for _, n := range statementNames {
		out[n.name] = []int{}
	}
	for i, h := range headings {
		kind := statementOf(h)
		for _, n := range statementNames {
			if kind == n.kind {
				out[n.name] = append(out[n.name], i+1)
			}
		}
	}
	return out
}

// statementPagesOf returns the pages of docs that are statements need
// names, and whether every one of docs knows its statements (documents
// processed before they were recorded do not).
func statementPagesOf(docs []room.Document, need statement) (map[pageKey]bool, bool) {
	pages := map[pageKey]bool{}
	for _, d := range docs {
		if d.Meta.Statements == nil {
			return nil, false
		}
		for _, n := range statementNames {
			if need&n.kind == 0 {
				continue
			}
			for _, p := range d.Meta.Statements[n.name] {
				pages[pageKey{d.ID, p}] = true
			}
		}
	}
	return pages, true
}

// statementTitles are how filings title each statement, squashed to
// letters (PDF text sets letters apart: "Balance Shee t").
var statementTitles = []struct {
	kind   statement
	titles []string
}{
	{balanceSheet, []string{"balancesheet", "statementoffinancialposition", "statementsoffinancialposition",
		"statementoffinancialcondition", "statementsoffinancialcondition"}},
	{incomeStatement, []string{"statementofincome", "statementsofincome", "statementofoperations", "statementsofoperations",
		"statementofearnings", "statementsofearnings", "incomestatement", "statementofprofitorloss", "statementsofprofitorloss",
		"profitandlossaccount"}},
	{cashFlowStatement, []string{"statementofcashflow", "statementsofcashflow", "cashflowstatement"}},
}

// statementNeeds maps what a question asks about to the statements that
// report it: the vocabulary of financial analysis in general. Each entry
// is a phrase of question words (all must appear, in order) and the
// statements it needs.
var statementNeeds = []struct {
	phrase string
	needs  statement
}{
	{"balance sheet", balanceSheet},
	{"financial position", balanceSheet},
	{"income statement", incomeStatement},
	{"statement of income", incomeStatement},
	{"statement of operations", incomeStatement},
	{"p&l", incomeStatement},
	{"profit and loss", incomeStatement},
	{"cash flow statement", cashFlowStatement},
	{"statement of cash flows", cashFlowStatement},
	{"statement of cash flow", cashFlowStatement},

	{"quick ratio", balanceSheet},
	{"current ratio", balanceSheet},
	{"working capital", balanceSheet},
	{"liquidity", balanceSheet},
	{"total assets", balanceSheet},
	{"liabilities", balanceSheet},
	{"liability", balanceSheet},
	{"ppne", balanceSheet},
	{"pp&e", balanceSheet},
	{"property plant", balanceSheet},
	{"fixed assets", balanceSheet},
	{"debt", balanceSheet},
	{"leverage", balanceSheet},
	{"book value", balanceSheet},
	{"shareholders equity", balanceSheet},
	{"inventory", balanceSheet | incomeStatement},
	{"inventories", balanceSheet | incomeStatement},
	{"accounts payable", balanceSheet},
	{"accounts receivable", balanceSheet},
	{"days payable", balanceSheet | incomeStatement},
	{"days sales", balanceSheet | incomeStatement},
	{"dpo", balanceSheet | incomeStatement},
	{"dso", balanceSheet | incomeStatement},
	{"dio", balanceSheet | incomeStatement},
	{"asset turnover", balanceSheet | incomeStatement},
	{"return on assets", balanceSheet | incomeStatement},
	{"return on equity", balanceSheet | incomeStatement},
	{"roa", balanceSheet | incomeStatement},
	{"roe", balanceSheet | incomeStatement},
	{"capital intensive", balanceSheet | cashFlowStatement},
	{"capital intensity", balanceSheet | cashFlowStatement},
	{"cash and cash equivalents", balanceSheet},

	{"revenue", incomeStatement},
	{"net sales", incomeStatement},
	{"top line", incomeStatement},
	{"topline", incomeStatement},
	{"gross margin", incomeStatement},
	{"gross profit", incomeStatement},
	{"operating margin", incomeStatement},
	{"operating income", incomeStatement},
	{"operating profit", incomeStatement},
	{"net income", incomeStatement},
	{"net margin", incomeStatement},
	{"net profit", incomeStatement},
	{"ebit", incomeStatement},
	{"ebitda", incomeStatement | cashFlowStatement},
	{"interest coverage", incomeStatement},
	{"interest expense", incomeStatement},
	{"cogs", incomeStatement},
	{"cost of goods", incomeStatement},
	{"cost of sales", incomeStatement},
	{"sg&a", incomeStatement},
	{"restructuring", incomeStatement},
	{"earnings per share", incomeStatement},
	{"eps", incomeStatement},
	{"effective tax rate", incomeStatement},
	{"high growth", incomeStatement},

	{"capex", cashFlowStatement},
	{"capital expenditure", cashFlowStatement},
	{"capital expenditures", cashFlowStatement},
	{"free cash flow", cashFlowStatement},
	{"fcf", cashFlowStatement},
	{"operating activities", cashFlowStatement},
	{"investing activities", cashFlowStatement},
	{"financing activities", cashFlowStatement},
	{"cash from operations", cashFlowStatement},
	{"cash flow", cashFlowStatement},
	{"depreciation and amortization", cashFlowStatement},
	{"d&a", cashFlowStatement},
	{"dividends paid", cashFlowStatement},
	{"share repurchases", cashFlowStatement},
	{"stock repurchases", cashFlowStatement},
	{"buybacks", cashFlowStatement},
}

var needWordRe = regexp.MustCompile(`[\p{L}\p{N}&]+`)

// statementsFor returns the statements a question needs, 0 for none.
func statementsFor(question string) statement {
	words := needWordRe.FindAllString(strings.ToLower(question), -1)
	var out statement
	for _, n := range statementNeeds {
		if hasPhrase(words, strings.Fields(n.phrase)) {
			out |= n.needs
		}
	}
	return out
}

// hasPhrase reports whether words holds phrase's words in a row; a
// phrase word also matches the same word with a plural "s".
func hasPhrase(words, phrase []string) bool {
	for i := 0; i+len(phrase) <= len(words); i++ {
		ok := true
		for j, p := range phrase {
			if w := words[i+j]; w != p && w != p+"s" {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// statementOf returns which statement a page heading titles, 0 for none.
// Statements of comprehensive income, of equity and condensed parent-only
// schedules are not the primary statements asked about.
// Only the page's own titles count: a heading part naming a note or an
// item ("Note 6. Supplemental Income Statement Information") is the
// section the page is in, not a statement.
func statementOf(heading string) statement {
	var out statement
	for part := range strings.SplitSeq(heading, " — ") {
		s := squash(part)
		if s == "" || strings.HasPrefix(s, "note") || strings.HasPrefix(s, "item") || unicode.IsDigit(rune(strings.TrimSpace(part)[0])) {
			continue
		}
		if strings.Contains(s, "comprehensive") && !strings.Contains(s, "incomeand") ||
			strings.Contains(s, "parentcompany") || strings.Contains(s, "registrant") || strings.Contains(s, "indexto") {
			continue
		}
		for _, t := range statementTitles {
			for _, title := range t.titles {
				if strings.Contains(s, title) {
					out |= t.kind
				}
			}
		}
	}
	// A heading naming two statements is an index or a cross-reference,
	// not a statement.
	if out&(out-1) != 0 {
		return 0
	}
	return out
}

// squash keeps a text's letters, lower-cased.
func squash(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// statementTerms are the search words that find each statement's pages.
func statementTerms(need statement) []string {
	var out []string
	if need&balanceSheet != 0 {
		out = append(out, "balance", "sheet", "sheets", "financial", "position", "condition")
	}
	if need&incomeStatement != 0 {
		out = append(out, "statement", "statements", "income", "operations", "earnings")
	}
	if need&cashFlowStatement != 0 {
		out = append(out, "cash", "flows", "flow")
	}
	return out
}
