package ask

import "slices"

// financeTerms is how filings word what questions ask for: a question's
// shorthand or plain word, and the words of the line items and statement
// titles that report it. It is the vocabulary of financial statements in
// general (US GAAP and IFRS captions), not of any document.
var financeTerms = []struct {
	when []string // all of these terms in the question
	add  []string
}{
	{[]string{"capex"}, []string{"capital", "expenditures", "purchases", "property", "plant", "equipment"}},
	{[]string{"capital", "expenditure"}, []string{"purchases", "property", "plant", "equipment", "additions"}},
	{[]string{"capital", "expenditures"}, []string{"purchases", "property", "plant", "equipment", "additions"}},
	{[]string{"cash", "flow"}, []string{"operating", "investing", "financing", "activities"}},
	{[]string{"balance", "sheet"}, []string{"total", "assets", "liabilities", "equity"}},
	{[]string{"income", "statement"}, []string{"revenues", "net", "income", "operations", "earnings"}},
	{[]string{"p&l"}, []string{"revenues", "net", "income", "operations"}},
	{[]string{"revenue"}, []string{"revenues", "sales", "net"}},
	{[]string{"sales"}, []string{"revenue", "revenues"}},
	{[]string{"profit"}, []string{"income", "earnings"}},
	{[]string{"eps"}, []string{"earnings", "per", "share", "diluted"}},
	{[]string{"cogs"}, []string{"cost", "goods", "sold", "sales"}},
	{[]string{"opex"}, []string{"operating", "expenses"}},
	{[]string{"d&a"}, []string{"depreciation", "amortization"}},
	{[]string{"fcf"}, []string{"free", "cash", "flow", "operating", "activities"}},
	{[]string{"dividends"}, []string{"dividend", "paid", "declared"}},
	{[]string{"dividend"}, []string{"dividends", "paid", "declared"}},
	{[]string{"margin"}, []string{"gross", "profit", "operating", "income"}},
	{[]string{"working", "capital"}, []string{"current", "assets", "liabilities"}},
	{[]string{"inventory"}, []string{"inventories", "merchandise"}},
	{[]string{"debt"}, []string{"borrowings", "notes", "long-term"}},
	{[]string{"headcount"}, []string{"employees"}},
	{[]string{"employees"}, []string{"headcount", "workforce"}},
	{[]string{"acquisition"}, []string{"acquired", "acquisitions", "business", "combination"}},
	{[]string{"segment"}, []string{"segments", "reportable"}},
	{[]string{"ebitda"}, []string{"depreciation", "amortization", "operating", "income"}},
	{[]string{"roa"}, []string{"total", "assets", "net", "income"}},
	{[]string{"roe"}, []string{"equity", "net", "income"}},
	{[]string{"leverage"}, []string{"debt", "equity", "total", "assets"}},
	{[]string{"liquidity"}, []string{"cash", "equivalents", "current", "assets", "liabilities"}},
	{[]string{"quick", "ratio"}, []string{"cash", "equivalents", "receivable", "receivables", "marketable", "securities", "current", "liabilities"}},
	{[]string{"current", "ratio"}, []string{"current", "assets", "liabilities"}},
	{[]string{"ppne"}, []string{"property", "plant", "equipment", "net"}},
	{[]string{"gross", "margin"}, []string{"gross", "profit", "cost", "sales", "revenues"}},
	{[]string{"operating", "margin"}, []string{"operating", "income", "revenues"}},
	{[]string{"effective", "tax"}, []string{"income", "taxes", "provision", "rate"}},
	{[]string{"dpo"}, []string{"accounts", "payable", "cost", "sales", "inventories"}},
	{[]string{"interest", "coverage"}, []string{"interest", "expense", "operating", "income"}},
	{[]string{"capital", "intensive"}, []string{"property", "plant", "equipment", "capital", "expenditures", "total", "assets"}},
}

// expandFinance adds the words filings use for what the terms ask.
func expandFinance(terms []string) []string {
	out := slices.Clone(terms)
	for _, f := range financeTerms {
		all := true
		for _, w := range f.when {
			all = all && slices.Contains(terms, w)
		}
		if !all {
			continue
		}
		for _, w := range f.add {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// financeWordings are how filings may put what one question word asks
// for: each alternative is a phrase whose words must all be there.
var financeWordings = map[string][][]string{
	"capex":       {{"capital", "expenditures"}, {"purchases", "property"}, {"additions", "property"}},
	"revenue":     {{"revenues"}, {"sales"}},
	"revenues":    {{"revenue"}, {"sales"}},
	"sales":       {{"revenue"}, {"revenues"}},
	"profit":      {{"income"}, {"earnings"}},
	"eps":         {{"earnings", "per"}},
	"cogs":        {{"cost", "sales"}, {"cost", "goods"}},
	"opex":        {{"operating", "expenses"}},
	"d&a":         {{"depreciation", "amortization"}},
	"fcf":         {{"free", "cash"}},
	"ppne":        {{"property", "plant"}},
	"headcount":   {{"employees"}},
	"employees":   {{"headcount"}, {"workforce"}},
	"debt":        {{"borrowings"}},
	"dividend":    {{"dividends"}},
	"dividends":   {{"dividend"}},
	"inventory":   {{"inventories"}},
	"liquidity":   {{"cash", "equivalents"}},
	"leverage":    {{"debt", "equity"}},
	"segment":     {{"segments"}},
	"acquisition": {{"acquired"}, {"acquisitions"}},
}

// financeAlternatives returns how filings may put one question word.
func financeAlternatives(w string) [][]string { return financeWordings[w] }
