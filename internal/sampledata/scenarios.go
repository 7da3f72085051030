package sampledata

import "github.com/quarry-dev/quarry/investigation"

// The scenarios' seeds. Each planted-cause seed was chosen among the first
// two dozen as a typical draw: its measured shares sit near the shares the
// generator's parameters imply, not in a tail of the noise. Changing a seed
// changes the committed testdata and the measured shares below, which the
// tests check.
const (
	seedRevenueDrop = 7
	seedConversion  = 18
	seedSteady      = 20240916
	seedPipeline    = 20
	seedWeekdayMix  = 21
)

func revenueDrop() Scenario {
	s := shop{
		seed: seedRevenueDrop, baseline: period("2024-03-04", "2024-03-17"),
		comparison: period("2024-03-18", "2024-03-31"), perDay: 1250,
		keepAndroid52: 0.30, enterpriseAmount: 0.70, keepAll: 0.985,
	}
	return Scenario{
		Name:      "revenue_drop",
		Files:     shopFiles(s),
		MetricSQL: "SELECT SUM(amount) FROM orders",
		Baseline:  s.baseline, Comparison: s.comparison,
		Context: "Online shop selling on iOS, Android and the web in 12 countries. " +
			"App release 5.2 rolled out to both stores in February. Enterprise " +
			"accounts buy on negotiated price lists.",
		Prompt: "Revenue fell about 10% in the second half of March compared with the first half. Why?",
		Planted: []Cause{
			{
				Kind: investigation.KindVolume, Segment: seg("platform", "android", "app_version", "5.2"), Table: "orders",
				Note:        "android app 5.2 broke checkout on 2024-03-18: 70% of its orders are lost from that day",
				ApproxShare: 0.586,
			},
			{
				Kind: investigation.KindRate, Segment: seg("segment", "enterprise"), Table: "customers",
				Note: "enterprise price list cut: average enterprise order amount falls 30% in the comparison period; " +
					"visible only through orders.customer_id -> customers.customer_id",
				ApproxShare: 0.297,
			},
		},
		ExpectOutcome: investigation.OutcomeCompleted,
	}
}

func steady() Scenario {
	s := shop{
		seed: seedSteady, baseline: period("2024-09-02", "2024-09-15"),
		comparison: period("2024-09-16", "2024-09-29"), perDay: 1250,
	}
	return Scenario{
		Name:      "steady",
		Files:     shopFiles(s),
		MetricSQL: "SELECT SUM(amount) FROM orders",
		Baseline:  s.baseline, Comparison: s.comparison,
		Context: "Online shop selling on iOS, Android and the web in 12 countries.",
		Prompt:  "Did revenue change in the second half of September, and if so why?",
		// Nothing is planted: the change is day-to-day noise.
		ExpectOutcome: investigation.OutcomeNoFindings,
	}
}

func shopFiles(s shop) []File {
	return []File{
		{Name: "orders.csv", Description: "One row per order: date, customer, platform, app version (web for the website), country, marketing channel and amount in USD.", Write: s.writeOrders},
		{Name: "customers.csv", Description: "One row per customer: segment (enterprise, smb, consumer), region and signup date.", Write: s.writeCustomers},
	}
}

func checkoutConversion() Scenario {
	f := funnel{
		seed: seedConversion, baseline: period("2024-04-08", "2024-04-21"),
		comparison: period("2024-04-22", "2024-05-05"), perDay: 2000,
		socialShare: 0.10, socialShareAfter: 0.20, iosDERate: 0.40,
	}
	return Scenario{
		Name: "checkout_conversion",
		Files: []File{{Name: "sessions.csv", Write: f.write,
			Description: "One row per website or app session: date, device, country, traffic source, whether it converted (0/1) and its revenue in USD."}},
		MetricSQL: "SELECT SUM(converted)*1.0/COUNT(*) FROM sessions",
		Baseline:  f.baseline, Comparison: f.comparison,
		Context: "Checkout conversion is orders per session. Marketing started a paid social " +
			"campaign on 2024-04-22 in every market except Germany; the iOS app shipped a " +
			"new German payment page the same week.",
		Prompt: "Checkout conversion fell from about 4.1% to 3.6%. What happened?",
		Planted: []Cause{
			{
				Kind: investigation.KindMix, Segment: seg("traffic_source", "paid_social"), Table: "sessions",
				Note: "paid_social's share of sessions doubles from 10% to 20% while it converts at ~1.5%: " +
					"a mix effect, no source converts worse than before",
				ApproxShare: 0.620,
			},
			{
				Kind: investigation.KindRate, Segment: seg("device", "ios", "country", "DE"), Table: "sessions",
				Note:        "the new German iOS payment page cuts conversion from ~5% to ~2% with unchanged traffic",
				ApproxShare: 0.435,
			},
		},
		ExpectOutcome: investigation.OutcomeCompleted,
	}
}

func brokenPipeline() Scenario {
	p := pipeline{
		seed: seedPipeline, baseline: period("2024-06-03", "2024-06-16"),
		comparison: period("2024-06-17", "2024-06-30"), perDay: 1500,
		stoppedFrom: date("2024-06-27"), lastDayKept: 0.30,
	}
	return Scenario{
		Name: "broken_pipeline",
		Files: []File{{Name: "events.csv", Write: p.write,
			Description: "One row per purchase event as ingested: date, country, platform, the ingestion system that delivered it, and its value in USD."}},
		MetricSQL: "SELECT SUM(value) FROM events",
		Baseline:  p.baseline, Comparison: p.comparison,
		Context: "Purchase events reach the warehouse through four ingestion systems: " +
			"amer_stream, eu_stream, apac_stream and the nightly eu_batch export for France and Germany. " +
			"The extract was taken on the morning of 2024-06-30.",
		Prompt: "Revenue in the second half of June is down about 10%. Is the business shrinking?",
		Planted: []Cause{
			{
				Kind: investigation.KindDataQuality, Segment: seg("source_system", "eu_batch"), Table: "events",
				Note:        "eu_batch ingestion stopped: no FR or DE rows from 2024-06-27 to 2024-06-30",
				ApproxShare: 0.692,
			},
			{
				Kind: investigation.KindDataQuality, Segment: seg("event_date", "2024-06-30"), Table: "events",
				Note:        "the last day is partial: only ~30% of its rows had arrived when the data was extracted",
				ApproxShare: 0.351,
			},
		},
		ExpectOutcome: investigation.OutcomeCompleted,
	}
}

func weekdayMix() Scenario {
	c := calendarShop{seed: seedWeekdayMix, span: period("2024-07-01", "2024-07-22"), weekday: 700}
	return Scenario{
		Name: "weekday_mix",
		Files: []File{{Name: "orders.csv", Write: c.write,
			Description: "One row per order: date, platform, country, marketing channel and amount in USD."}},
		MetricSQL:  "SELECT SUM(amount) FROM orders",
		Baseline:   period("2024-07-01", "2024-07-10"),
		Comparison: period("2024-07-13", "2024-07-22"),
		Context: "Online shop whose weekend days sell about twice as much as weekdays. " +
			"The two periods have the same length but start on different weekdays.",
		Prompt: "Revenue is up about 17% between the two 10-day periods. What drove the growth?",
		Planted: []Cause{{
			Kind: investigation.KindCalendar, Table: "orders",
			Note: "the comparison period has 4 weekend days against the baseline's 2; " +
				"the revenue of each weekday is unchanged",
			ApproxShare: 1.047,
		}},
		ExpectOutcome: investigation.OutcomeCompleted,
	}
}
