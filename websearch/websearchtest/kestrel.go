package websearchtest

// KestrelQuestion is the question Kestrel's pages answer.
const KestrelQuestion = "What was Kestrel Dynamics' revenue for fiscal 2024?"

// Kestrel's pages: an amended filing and a wire report give fiscal 2024
// revenue as $46.9 million, an older blog post as $52.5 million (the
// planted contradiction, which recency, consensus and credibility all
// resolve to $46.9 million); the annual report as a PDF and a members'
// page that robots.txt disallows are not read.
func Kestrel() []Page {
	return []Page{
		{Host: "www.sec.gov", Path: "/Archives/edgar/data/1000001/kestrel-10ka.htm", Title: "Form 10-K/A Kestrel Dynamics Inc.", Published: "2025-04-02",
			Body: page("Form 10-K/A: Kestrel Dynamics Inc.", "EDGAR Search | Company filings | Latest filings | Contact the SEC",
				"Amendment No. 1 to the annual report on Form 10-K of Kestrel Dynamics Inc. for the fiscal year ended December 31, 2024. Filed: April 2, 2025.",
				"This amendment restates the consolidated financial statements after the audit committee's review of revenue recognised on multi-year service contracts.",
				"Kestrel Dynamics Inc. revenue for fiscal 2024 was $46.9 million, as restated in this amendment.",
				"Kestrel Dynamics Inc. is a maker of industrial inspection drones headquartered in Dayton, Ohio, and sells to utilities, refineries and railways.")},
		{Host: "www.reuters.com", Path: "/business/kestrel-dynamics-restates-2024-results", Title: "Kestrel Dynamics restates 2024 results", Published: "2025-04-03",
			Body: page("Kestrel Dynamics restates 2024 results", "Business | Markets | World | Subscribe | Sign in",
				"Kestrel Dynamics Inc., the Dayton maker of industrial inspection drones, restated its results for 2024 on Wednesday after a review by its audit committee.",
				"Kestrel Dynamics Inc. revenue for fiscal 2024 was $46.9 million, the company said in its amended annual report.",
				"The company said the restatement did not affect its cash position. Its shares fell in early trading in New York.",
				"Analysts said the review had focused on service contracts signed with utilities in Ohio and Indiana over the last three years.")},
		{Host: "daytontechblog.example", Path: "/2025/01/kestrel-revenue", Title: "Kestrel's big year", Published: "2025-01-10",
			Body: page("Kestrel's big year", "Home | Gadgets | Drones | About this blog | Comments (12)",
				"Posted by a Dayton tech fan. Kestrel Dynamics Inc., the Dayton maker of inspection drones, had quite a year, if the chatter around town is right.",
				"Kestrel Dynamics Inc. revenue for fiscal 2024 was $52.5 million, according to people I talked to at a trade show.",
				"I have not seen the filing yet, but the new inspection drone was everywhere at the show and the booth was packed all week.",
				"Let me know in the comments what you think of the new model and whether it beats the competition.")},
		{Host: "www.sec.gov", Path: "/Archives/edgar/data/1000001/kestrel-annual-report.pdf", Title: "Kestrel Dynamics annual report 2024 (PDF)",
			ContentType: "application/pdf", Body: "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n"},
		{Host: "members.example", Path: "/kestrel-revenue-2024", Title: "Members only: Kestrel revenue", Disallowed: true,
			Body: page("Members only", "Members | Log in", "Kestrel Dynamics Inc. revenue for fiscal 2024 was $99 million, members were told.")},
	}
}

// page writes an HTML page: a navigation bar, an article of paragraphs,
// a sidebar and a footer.
func page(title, nav string, paragraphs ...string) string {
	body := ""
	for _, p := range paragraphs {
		body += "    <p>" + p + "</p>\n"
	}
	return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>` + title + `</title></head>
<body>
<header><nav class="menu">` + nav + `</nav></header>
<aside class="sidebar"><h3>Trending</h3><ul><li><a href="/x">Ten gadgets to buy this year</a></li><li><a href="/y">Subscribe to our newsletter</a></li></ul></aside>
<main>
  <article>
    <h1>` + title + `</h1>
` + body + `  </article>
</main>
<footer>Copyright 2025. All rights reserved. Privacy policy and terms of use.</footer>
</body>
</html>
`
}
