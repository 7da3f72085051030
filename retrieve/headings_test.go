package retrieve

import "testing"

func TestPageHeadings(t *testing.T) {
	pages := []string{
		// A table of contents: its entries end in page numbers and open
		// no section, and its title is not a heading.
		"Table of Contents\nINDEX\nItem 1. Business 3\nNote 21 - Legal Proceedings 109\n",
		"Table of Contents\n\nPART I\nItem 1. Business\nThe Company, together with its subsidiaries, makes widgets in eleven countries and sells them.\n",
		"we sold more widgets than in any year before, as the table below shows in detail.\n",
		"Table of Contents\n\nAcme Corp and Subsidiaries\nConsolidated Balance Shee t\nAt December 31\n\n(Dollars in millions)        2022      2021\nCash        $  1,234   $  1,111\n",
		"8.        Borrowings and Credit Agreements\nThe following table is a summary of the Company's borrowings:\nLong-term debt     4,000     3,900\n",
		"which the Company expects to repay in 2024.\nNote 21 – Legal Proceedings\nVarious lawsuits have been brought against us.\n",
		"claims against the Company that we cannot estimate at this time, as further described above.\n",
	}
	want := []string{
		"",
		"PART I — Item 1. Business",
		"Item 1. Business",
		"Acme Corp and Subsidiaries — Consolidated Balance Sheet — Item 1. Business",
		"8. Borrowings and Credit Agreements",
		"8. Borrowings and Credit Agreements",
		"Note 21 – Legal Proceedings",
	}
	got := PageHeadings(pages)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("page %d: heading %q, want %q", i+1, got[i], want[i])
		}
	}
}

func TestHeadingLineRejectsProseAndTables(t *testing.T) {
	for _, l := range []string{
		"The following table summarizes cost of sales:",
		"Cash and cash equivalents          $   1,234     $  1,111",
		"we expect revenue to grow.",
		"This is a long sentence that goes on and on about the business of the company and what it does every day.",
		"12,345",
	} {
		if h, ok := headingLine(l); ok {
			t.Errorf("headingLine(%q) = %q, want no heading", l, h)
		}
	}
}

func TestCapRunesCutsAtASpace(t *testing.T) {
	if got := capRunes("Consolidated Statements of Financial Position", 30); got != "Consolidated Statements of" {
		t.Errorf("capRunes = %q", got)
	}
}
