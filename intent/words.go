package intent

// stopwords are words that carry no request of their own; left over, they
// are not reported as not understood.
var stopwords = setOf(
	"a", "about", "across", "after", "again", "all", "along", "also", "am", "an", "analyse", "analysed", "analysing",
	"analysis", "analyses", "analyze", "analyzed", "analyzing", "and", "any", "are", "as", "at", "based", "be", "been",
	"being", "both", "but", "by", "calculate", "can", "check", "compute", "could", "create", "csv", "data", "dataset",
	"determine", "did", "display", "do", "does", "doing", "done", "during", "each", "either", "etc", "every", "examine",
	"explore", "figures", "file", "find", "for", "from", "further", "generate", "get", "give", "go", "had", "has", "have",
	"having", "he", "her", "here", "his", "how", "i", "id", "identify", "if", "in", "include", "including", "into", "is",
	"it", "its", "just", "know", "let", "lets", "like", "look", "looking", "make", "me", "metric", "metrics", "might",
	"much", "must", "my", "need", "numbers", "of", "on", "only", "or", "our", "ours", "out", "overall", "per",
	"please", "plus", "produce", "provide", "quick", "quickly", "report", "reports", "review", "run", "see", "shall",
	"she", "should", "show", "so", "some", "such", "table", "tables", "tell", "than", "thank", "thanks", "that", "the",
	"their", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too", "understand", "up",
	"us", "use", "using", "very", "via", "vs", "want", "was", "we", "well", "were", "what", "when", "where", "which",
	"while", "who", "whom", "why", "will", "with", "within", "would", "you", "your", "yours", "d", "s", "ll", "re", "ve",
	"where", "whats", "time", "period", "periods", "value", "values", "give", "versus", "kindly", "can't", "cant",
	"dont", "in", "whole", "entire", "full", "together", "same", "other", "breakdown", "split", "broken", "down",
	"wise", "level", "let's", "any", "between", "over", "under", "there", "sort", "sorted", "order", "ordered",
	"rank", "ranked", "ranking", "rankings", "list", "top", "best", "worst", "bottom", "highest", "lowest",
	"date", "dates", "day", "days", "total", "number", "count", "investigate", "study", "assess", "evaluate",
	"compare", "compared", "comparing", "comparison", "sell", "sells", "selling", "sold", "made", "make", "had",
	"happened", "doing", "performed", "went", "go", "trends", "versus", "test", "tests", "comes", "come", "coming",
	"most", "least", "came", "placed", "bought", "purchased", "usd", "eur", "gbp", "dollar", "dollars", "why", "much", "did", "look", "like", "looks", "looked", "who", "whose", "vs.", "v",
)

// aggs are the aggregation words, longest first where one is the start of
// another.
var aggs = map[string]string{
	"total": "sum", "sum": "sum", "sum of": "sum", "sum total": "sum", "totals": "sum", "aggregate": "sum", "combined": "sum",
	"cumulative": "sum",
	"average":    "avg", "avg": "avg", "mean": "avg", "averages": "avg", "typical": "avg",
	"median": "median", "medians": "median",
	"minimum": "min", "min": "min", "lowest": "min", "smallest": "min", "least": "min",
	"maximum": "max", "max": "max", "highest": "max", "largest": "max", "biggest": "max", "peak": "max",
	"range of": "range", "the range of": "range",
	"standard deviation": "std", "standard deviation of": "std", "std": "std", "stdev": "std", "std dev": "std",
	"stddev": "std", "sd": "std", "volatility": "std", "variability": "std",
	"count": "count", "counts": "count", "number of": "count", "count of": "count", "how many": "count", "# of": "count", "#": "count",
	"total number of": "count", "the number of": "count", "headcount": "count", "head count": "count",
	"unique": "count_distinct", "distinct": "count_distinct", "number of unique": "count_distinct",
	"number of distinct": "count_distinct", "count of unique": "count_distinct", "count of distinct": "count_distinct",
	"how many unique": "count_distinct", "how many distinct": "count_distinct", "count distinct": "count_distinct",
}

func aggWord(w string) bool { _, ok := aggs[w]; return ok }

// moneyWords name a measure of money; the best money-like column is used.
var moneyWords = setOf("sales", "sale", "revenue", "revenues", "turnover", "income", "gmv", "spend", "spending",
	"spent", "earnings", "proceeds", "bookings", "dollars", "money", "receipts", "takings",
	// verbs of money: "clients billed the most", "households that earn more than 1,000"
	"billed", "invoiced", "charged", "earned", "earn", "earns", "earning")

// countedSales are the money words whose rows are counted when the table
// has no money-like column: the number of sales, of bookings.
var countedSales = setOf("sales", "sale", "bookings")

// moneyColumns are words of money-like column names, best first.
var moneyColumns = []string{"revenue", "sales", "sale", "amount", "turnover", "gmv", "total", "value", "spend",
	"payment", "paid", "price", "fare", "subtotal", "net", "gross", "income", "charge", "charged", "cost", "usd", "eur",
	"dollars", "salary", "salaries", "wage", "wages", "pay", "earnings"}

// quantityWords name a measure of units; the best quantity-like column is used.
var quantityWords = setOf("units", "unit", "quantity", "quantities", "qty", "volume", "volumes", "items", "pieces",
	"pcs", "sold")

var quantityColumns = []string{"quantity", "qty", "units", "unit", "volume", "items", "pieces", "pcs", "count", "sold"}

// countNouns name the rows themselves: "orders by state" counts them.
var countNouns = setOf("games", "matches", "fixtures", "orders", "order", "transactions", "transaction", "purchases", "purchase", "rows", "row",
	"records", "record", "entries", "entry", "lines", "tickets", "visits", "events", "bookings", "deals", "invoices",
	"invoice", "txns", "shipments", "sessions", "observations", "cases", "passengers", "people", "trips", "calls")

// isCountNoun reports whether w names rows, singular or plural.
func isCountNoun(w string) bool {
	return countNouns[w] || countNouns[singular(w)] || countNouns[w+"s"]
}

// avgWords in a column name make its default aggregation an average: a
// rate, a percentage, a score or an age does not add up.
var avgWords = setOf("pct", "%", "percent", "percentage", "rate", "ratio", "score", "rating", "age", "avg", "average",
	"mean", "median", "price", "margin", "discount", "temperature", "temp", "probability", "prob", "share", "index",
	"lat", "latitude", "lon", "lng", "longitude", "height", "bmi", "grade", "satisfaction", "nps", "duration", "tenure",
	"weight", "speed", "latency", "yield", "conversion", "churn", "frac", "fraction", "level", "per")

// amountUnit returns what a unit written after a number measures:
// "money" for "$"-like words, "quantity" for "units"-like words.
func amountUnit(w string) string {
	switch {
	case w == "dollars" || w == "usd" || w == "eur" || w == "euros" || w == "gbp" || w == "k" || w == "bucks":
		return "money"
	case quantityWords[w] || w == "item" || w == "piece":
		return "quantity"
	}
	return ""
}
