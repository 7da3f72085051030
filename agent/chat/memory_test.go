package chat

import "github.com/quarry-dev/quarry/investigation"

// The memories below are the sections two demo investigations wrote to
// analysis/memory.json (quarry demo, and quarry demo --scenario
// checkout_conversion), with the SQL of each iteration shortened.

var revenueMemory = []investigation.MemorySection{
	{
		Ref:   `context.json`,
		Title: `Context`,
		Text: `Metric: SELECT SUM(amount) FROM orders
Baseline: 2024-03-04..2024-03-17
Comparison: 2024-03-18..2024-03-31
Business context: Online shop selling on iOS, Android and the web in 12 countries. App release 5.2 rolled out to both stores in February. Enterprise accounts buy on negotiated price lists.
Prompt: Revenue fell about 10% in the second half of March compared with the first half. Why?`,
	},
	{
		Ref:   `results/explanations.json`,
		Title: `Overall change`,
		Text:  `The metric moved from 947,083 to 849,350 (-97,732, -10.3%); p<0.0001.`,
	},
	{
		Ref:   `analysis/memory.md#method`,
		Title: `Method`,
		Text:  `How the contributions were calculated: the contribution of a segment is the part of the overall change that its rows account for. The metric adds up over rows, so the change splits exactly into the change of each segment (comparison value minus baseline value); a segment's share of the change is its change divided by the overall change. Candidate segments are measured as an exclusive partition: a row belongs to the first candidate it matches, so the candidates' effects plus everything else add up to the change with nothing counted twice. Each candidate is tested against its own day-to-day noise (Welch's test on deseasonalised daily values), with the Benjamini-Hochberg correction over every segment examined (the q-value). A change in the number of rows is reported as volume, a change in the value per row as rate, a change in the share of the denominator as mix; missing days, partial days, duplicates and null spikes are data-quality findings and rank first. Explanations are ranked by their measured share of the change, and the likelihood follows the rank (1 Most Likely, 2-3 Likely, 4-5 Possible, 6+ Less Likely).`,
	},
	{
		Ref:   `analysis/schema.json`,
		Title: `Data model`,
		Text: `Table customers: 6000 rows, 4 columns.
Table orders: 34179 rows, 8 columns.
Relationship orders.customer_id -> customers.customer_id (foreign_key, confidence 1.00).
Dimensions examined: platform, customers.segment, app_version, customers.region, channel, country.`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_001.json`,
		Title: `Hypothesis hyp_001 RULED_OUT: Broken data, not a business change`,
		Text:  `hyp_001 RULED_OUT: Broken data, not a business change. the data of both periods passed every data-quality check`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_002.json`,
		Title: `Hypothesis hyp_002 RULED_OUT: Different weekday mix of the two periods`,
		Text:  `hyp_002 RULED_OUT: Different weekday mix of the two periods. identical weekday composition`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_003.json`,
		Title: `Hypothesis hyp_003 CONFIRMED: A specific combination of segments moved`,
		Text:  `hyp_003 CONFIRMED: A specific combination of segments moved. platform=android AND app_version=5.2 explains 59% of the change (q<0.0001)`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_004.json`,
		Title: `Hypothesis hyp_004 CONFIRMED: Change concentrated in platform`,
		Text:  `hyp_004 CONFIRMED: Change concentrated in platform. platform=android carries 64% of the change from 34.6% of the baseline`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_005.json`,
		Title: `Hypothesis hyp_005 CONFIRMED: Change concentrated in customers.segment`,
		Text:  `hyp_005 CONFIRMED: Change concentrated in customers.segment. customers.segment=enterprise carries 30% of the change from 7.8% of the baseline`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_006.json`,
		Title: `Hypothesis hyp_006 CONFIRMED: Change concentrated in app_version`,
		Text:  `hyp_006 CONFIRMED: Change concentrated in app_version. app_version=5.2 carries 55% of the change from 18.5% of the baseline`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_007.json`,
		Title: `Hypothesis hyp_007 RULED_OUT: A uniform shift across all segments`,
		Text:  `hyp_007 RULED_OUT: A uniform shift across all segments. platform=android AND app_version=5.2 alone explains 59% of the change`,
	},
	{
		Ref:   `analysis/iterations/iter_001.json`,
		Title: `Finding find_001 (iteration 1, hyp_001)`,
		Text: `Iteration 1 decided ANALYZE. broken data must be ruled out before any business explanation
Finding find_001: No missing days, partial days, duplicate rows, null spikes or vanished categories were found in either period.
SQL: SELECT CAST(orders.order_date AS DATE) AS day, sum(amount) AS num, 0 AS den, COUNT(*) AS n
FROM orders
  LEFT JOIN (SELECT "customer_id" AS __rel1_key, "segment" AS __rel1_c0, "region" AS __rel1_c1 FROM "customers") AS __rel1 ON "orders"."customer_id" = __rel1.__rel1_key`,
	},
	{
		Ref:   `analysis/iterations/iter_002.json`,
		Title: `Finding find_002 (iteration 2, hyp_002)`,
		Text: `Iteration 2 decided PIVOT. periods with different weekdays differ for no business reason
Finding find_002: Both periods have the same weekday composition (2 Mon, 2 Tue, 2 Wed, 2 Thu, 2 Fri, 2 Sat, 2 Sun), so the calendar explains none of the change.
SQL: SELECT CAST(orders.order_date AS DATE) AS day, sum(amount) AS num, 0 AS den, COUNT(*) AS n
FROM orders
  LEFT JOIN (SELECT "customer_id" AS __rel1_key, "segment" AS __rel1_c0, "region" AS __rel1_c1 FROM "customers") AS __rel1 ON "orders"."customer_id" = __rel1.__rel1_key`,
	},
	{
		Ref:   `analysis/iterations/iter_003.json`,
		Title: `Finding find_003 (iteration 3, hyp_004)`,
		Text: `Iteration 3 decided PIVOT. decompose the change by platform
Finding find_003: By platform, platform=android accounts for 64% of the change (-62,628) while holding 34.6% of the baseline. Its rows went from 6,183 to 5,192.
SQL: SELECT "orders"."platform" AS value, CASE WHEN CAST(orders.order_date AS DATE) BETWEEN DATE '2024-03-18' AND DATE '2024-03-31' THEN 1 ELSE 0 END AS period, sum(amount) AS num, 0 AS den, COUNT(*) AS n
FROM orders
  LEFT JOIN (SELECT "customer_id" AS __rel1_key, "segment" AS __rel1_c0, "region" AS __rel1_c1 FROM "customers") AS __rel1 ON "orders"."customer_id" = __rel1.__rel1_key`,
	},
	{
		Ref:   `analysis/iterations/iter_004.json`,
		Title: `Finding find_004 (iteration 4, hyp_005)`,
		Text: `Iteration 4 decided ANALYZE. decompose the change by customers.segment
Finding find_004: By customers.segment, customers.segment=enterprise accounts for 30% of the change (-29,060) while holding 7.8% of the baseline. Its rows went from 385 to 340.
SQL: SELECT __rel1.__rel1_c0 AS value, CASE WHEN CAST(orders.order_date AS DATE) BETWEEN DATE '2024-03-18' AND DATE '2024-03-31' THEN 1 ELSE 0 END AS period, sum(amount) AS num, 0 AS den, COUNT(*) AS n
FROM orders
  LEFT JOIN (SELECT "customer_id" AS __rel1_key, "segment" AS __rel1_c0, "region" AS __rel1_c1 FROM "customers") AS __rel1 ON "orders"."customer_id" = __rel1.__rel1_key`,
	},
	{
		Ref:   `analysis/iterations/iter_005.json`,
		Title: `Finding find_005 (iteration 5, hyp_006)`,
		Text: `Iteration 5 decided ANALYZE. decompose the change by app_version
Finding find_005: By app_version, app_version=5.2 accounts for 55% of the change (-54,070) while holding 18.5% of the baseline. Its rows went from 3,346 to 2,275.
SQL: SELECT "orders"."app_version" AS value, CASE WHEN CAST(orders.order_date AS DATE) BETWEEN DATE '2024-03-18' AND DATE '2024-03-31' THEN 1 ELSE 0 END AS period, sum(amount) AS num, 0 AS den, COUNT(*) AS n
FROM orders
  LEFT JOIN (SELECT "customer_id" AS __rel1_key, "segment" AS __rel1_c0, "region" AS __rel1_c1 FROM "customers") AS __rel1 ON "orders"."customer_id" = __rel1.__rel1_key`,
	},
	{
		Ref:   `analysis/iterations/iter_006.json`,
		Title: `Finding find_006 (iteration 6, hyp_003)`,
		Text: `Iteration 6 decided DRILL_DOWN. search combinations of up to 3 dimension values
Finding find_006: A search over 1302 leaf segments of 6 dimensions points at 3 segment(s): platform=android AND app_version=5.2; customers.segment=smb; customers.segment=enterprise. Each is tested against its own daily noise next.
SQL: SELECT "orders"."platform" AS d0, __rel1.__rel1_c0 AS d1, "orders"."app_version" AS d2, __rel1.__rel1_c1 AS d3, "orders"."channel" AS d4, "orders"."country" AS d5, CASE WHEN CAST(orders.order_date AS DATE) BETWEEN DATE '2024-03-18' AND DATE '2024-03-31' THEN 1 ELSE 0 END AS period, sum(amount) AS num, 0 AS den, COUNT(*) AS n
FROM orders
  LEFT JOIN (SELECT "customer_id" AS __rel1_key, "segment" AS __rel1_c0, "region" AS __rel1_c1 FROM "customers") AS __rel1 ON "orders"."customer_id" = __rel1.__rel1_key`,
	},
	{
		Ref:   `analysis/iterations/iter_007.json`,
		Title: `Finding find_007 (iteration 7, hyp_003)`,
		Text: `Iteration 7 decided DRILL_DOWN. measure the candidate segments without overlap and test them against daily noise
Finding find_007: Measured as non-overlapping parts, the 3 candidate segments account for 96% of the change; 2 of them are significant after correction (q<=0.05), together 85%.
SQL: SELECT CASE WHEN CAST("orders"."platform" AS VARCHAR) = 'android' AND CAST("orders"."app_version" AS VARCHAR) = '5.2' THEN 1 WHEN CAST(__rel1.__rel1_c0 AS VARCHAR) = 'smb' THEN 2 WHEN CAST(__rel1.__rel1_c0 AS VARCHAR) = 'enterprise' THEN 3 ELSE 0 END AS part, CASE WHEN CAST(orders.order_date AS DATE) BETWEEN DATE '2024-03-18' AND DATE '2024-03-31' THEN 1 ELSE 0 END AS period, sum(amount) AS num, 0 AS den, COUNT(*) AS n
FROM orders
  LEFT JOIN (SELECT "customer_id" AS __rel1_key, "segment" AS __rel1_c0, "region" AS __rel1_c1 FROM "customers") AS __rel1 ON "orders"."customer_id" = __rel1.__rel1_key`,
	},
	{
		Ref:   `analysis/iterations/iter_008.json`,
		Title: `Finding find_008 (iteration 8, hyp_007)`,
		Text: `Iteration 8 decided ANALYZE. check whether anything stands out from a uniform shift
Finding find_008: The change is not uniform: platform=android AND app_version=5.2 alone explains 59% of it.`,
	},
	{
		Ref:   `analysis/iterations/iter_009.json`,
		Title: `Iteration 9: CONCLUDE`,
		Text: `Iteration 9 decided CONCLUDE. no unexamined hypothesis is left
Every planned check has run; 4 hypotheses confirmed, 3 ruled out.`,
	},
	{
		Ref:   `results/explanations.json#1`,
		Title: `Explanation 1: Fewer rows in platform=android AND app_version=5.2: 1,595 to 492`,
		Text:  `1. Fewer rows in platform=android AND app_version=5.2: 1,595 to 492 (Most Likely, volume): Ranked 1 by the measured share of the change it accounts for (59%). It accounts for -57,276 (59%) of the change, measured as a non-overlapping part of the population; its own day-level change is significant (q<0.0001 after correcting for 32 segments). The number of rows of platform=android AND app_version=5.2 moved from 1,595 to 492 (-69%), taking the metric with it.`,
	},
	{
		Ref:   `results/explanations.json#2`,
		Title: `Explanation 2: Lower value per row in customers.segment=enterprise: 192.6 to 132.1`,
		Text:  `2. Lower value per row in customers.segment=enterprise: 192.6 to 132.1 (Likely, rate): Ranked 2 by the measured share of the change it accounts for (26%). It accounts for -25,428 (26%) of the change, measured as a non-overlapping part of the population; its own day-level change is significant (q=0.0004 after correcting for 32 segments). Rows of customers.segment=enterprise kept coming (357 to 328) but each was worth 31% less on average.`,
	},
}

var checkoutMemory = []investigation.MemorySection{
	{
		Ref:   `context.json`,
		Title: `Context`,
		Text: `Metric: SELECT SUM(converted)*1.0/COUNT(*) FROM sessions
Baseline: 2024-04-08..2024-04-21
Comparison: 2024-04-22..2024-05-05
Business context: Checkout conversion is orders per session. Marketing started a paid social campaign on 2024-04-22 in every market except Germany; the iOS app shipped a new German payment page the same week.
Prompt: Checkout conversion fell from about 4.1% to 3.6%. What happened?`,
	},
	{
		Ref:   `results/explanations.json`,
		Title: `Overall change`,
		Text:  `The metric moved from 4.13% to 3.68% (-0.45 pp, -11.0%); p=0.0205.`,
	},
	{
		Ref:   `analysis/memory.md#method`,
		Title: `Method`,
		Text:  `How the contributions were calculated: the contribution of a segment is the part of the overall change that its rows account for. The metric is a ratio (sum(converted) / count_star()), so each segment's effect is split into a rate effect (its own ratio moved, weighted by its share of the denominator) and a mix effect (its share of the denominator moved, at its ratio's distance from the overall ratio); rate and mix effects add up to the overall change exactly. Candidate segments are measured as an exclusive partition: a row belongs to the first candidate it matches, so the candidates' effects plus everything else add up to the change with nothing counted twice. Each candidate is tested against its own day-to-day noise (Welch's test on deseasonalised daily values), with the Benjamini-Hochberg correction over every segment examined (the q-value). A change in the number of rows is reported as volume, a change in the value per row as rate, a change in the share of the denominator as mix; missing days, partial days, duplicates and null spikes are data-quality findings and rank first. Explanations are ranked by their measured share of the change, and the likelihood follows the rank (1 Most Likely, 2-3 Likely, 4-5 Possible, 6+ Less Likely).`,
	},
	{
		Ref:   `analysis/schema.json`,
		Title: `Data model`,
		Text: `Table sessions: 67733 rows, 7 columns.
Dimensions examined: device, traffic_source, country.`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_001.json`,
		Title: `Hypothesis hyp_001 RULED_OUT: Broken data, not a business change`,
		Text:  `hyp_001 RULED_OUT: Broken data, not a business change. the data of both periods passed every data-quality check`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_002.json`,
		Title: `Hypothesis hyp_002 RULED_OUT: Different weekday mix of the two periods`,
		Text:  `hyp_002 RULED_OUT: Different weekday mix of the two periods. identical weekday composition`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_003.json`,
		Title: `Hypothesis hyp_003 CONFIRMED: The population mix shifted`,
		Text:  `hyp_003 CONFIRMED: The population mix shifted. mix effects across traffic_source account for 62% of the change`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_004.json`,
		Title: `Hypothesis hyp_004 CONFIRMED: A specific combination of segments moved`,
		Text:  `hyp_004 CONFIRMED: A specific combination of segments moved. device=ios AND country=DE explains 42% of the change (q=0.0005)`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_005.json`,
		Title: `Hypothesis hyp_005 CONFIRMED: Change concentrated in device`,
		Text:  `hyp_005 CONFIRMED: Change concentrated in device. device=ios carries 81% of the change from 37.0% of the baseline`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_006.json`,
		Title: `Hypothesis hyp_006 CONFIRMED: Change concentrated in traffic_source`,
		Text:  `hyp_006 CONFIRMED: Change concentrated in traffic_source. traffic_source=paid_social carries 59% of the change from 10.1% of the baseline`,
	},
	{
		Ref:   `analysis/hypotheses/hyp_007.json`,
		Title: `Hypothesis hyp_007 RULED_OUT: A uniform shift across all segments`,
		Text:  `hyp_007 RULED_OUT: A uniform shift across all segments. traffic_source=paid_social alone explains 59% of the change`,
	},
	{
		Ref:   `analysis/iterations/iter_001.json`,
		Title: `Finding find_001 (iteration 1, hyp_001)`,
		Text: `Iteration 1 decided ANALYZE. broken data must be ruled out before any business explanation
Finding find_001: No missing days, partial days, duplicate rows, null spikes or vanished categories were found in either period.
SQL: SELECT CAST(sessions.session_date AS DATE) AS day, sum(converted) AS num, count_star() AS den, COUNT(*) AS n
FROM sessions
WHERE (CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-08' AND DATE '2024-04-21' OR CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05')`,
	},
	{
		Ref:   `analysis/iterations/iter_002.json`,
		Title: `Finding find_002 (iteration 2, hyp_002)`,
		Text: `Iteration 2 decided PIVOT. periods with different weekdays differ for no business reason
Finding find_002: Both periods have the same weekday composition (2 Mon, 2 Tue, 2 Wed, 2 Thu, 2 Fri, 2 Sat, 2 Sun), so the calendar explains none of the change.
SQL: SELECT CAST(sessions.session_date AS DATE) AS day, sum(converted) AS num, count_star() AS den, COUNT(*) AS n
FROM sessions
WHERE (CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-08' AND DATE '2024-04-21' OR CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05')`,
	},
	{
		Ref:   `analysis/iterations/iter_003.json`,
		Title: `Finding find_003 (iteration 3, hyp_005)`,
		Text: `Iteration 3 decided PIVOT. decompose the change by device
Finding find_003: By device, device=ios accounts for 81% of the change (-0.37 pp) while holding 37.0% of the baseline. Its rate moved from 4.37% to 3.38% (rate effect -0.37 pp, mix effect -0.00 pp). Across device, rate effects sum to -0.44 pp and mix effects to -0.01 pp.
SQL: SELECT "sessions"."device" AS value, CASE WHEN CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05' THEN 1 ELSE 0 END AS period, sum(converted) AS num, count_star() AS den, COUNT(*) AS n
FROM sessions
WHERE (CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-08' AND DATE '2024-04-21' OR CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05')`,
	},
	{
		Ref:   `analysis/iterations/iter_004.json`,
		Title: `Finding find_004 (iteration 4, hyp_006)`,
		Text: `Iteration 4 decided ANALYZE. decompose the change by traffic_source
Finding find_004: By traffic_source, traffic_source=paid_social accounts for 59% of the change (-0.27 pp) while holding 10.1% of the baseline. Its rate moved from 1.69% to 1.44% (rate effect -0.04 pp, mix effect -0.23 pp). Across traffic_source, rate effects sum to -0.17 pp and mix effects to -0.28 pp.
SQL: SELECT "sessions"."traffic_source" AS value, CASE WHEN CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05' THEN 1 ELSE 0 END AS period, sum(converted) AS num, count_star() AS den, COUNT(*) AS n
FROM sessions
WHERE (CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-08' AND DATE '2024-04-21' OR CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05')`,
	},
	{
		Ref:   `analysis/iterations/iter_005.json`,
		Title: `Finding find_005 (iteration 5, hyp_003)`,
		Text: `Iteration 5 decided ANALYZE. compare mix and rate effects across every dimension
Finding find_005: Mix shift in traffic_source: its mix effects sum to -0.28 pp (62% of the change). traffic_source=paid_social went from 10.1% to 19.9% of the denominator at a rate of 1.44%.
SQL: SELECT "sessions"."device" AS value, CASE WHEN CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05' THEN 1 ELSE 0 END AS period, sum(converted) AS num, count_star() AS den, COUNT(*) AS n
FROM sessions
WHERE (CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-08' AND DATE '2024-04-21' OR CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05')`,
	},
	{
		Ref:   `analysis/iterations/iter_006.json`,
		Title: `Finding find_006 (iteration 6, hyp_004)`,
		Text: `Iteration 6 decided DRILL_DOWN. search combinations of up to 3 dimension values
Finding find_006: A search over 120 leaf segments of 3 dimensions points at 4 segment(s): device=ios AND country=DE; device=android AND country=DE; device=android AND traffic_source=referral AND country=US; device=desktop AND traffic_source=referral AND country=DE. Each is tested against its own daily noise next.
SQL: SELECT "sessions"."device" AS d0, "sessions"."traffic_source" AS d1, "sessions"."country" AS d2, CASE WHEN CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05' THEN 1 ELSE 0 END AS period, sum(converted) AS num, count_star() AS den, COUNT(*) AS n
FROM sessions
WHERE (CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-08' AND DATE '2024-04-21' OR CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05')`,
	},
	{
		Ref:   `analysis/iterations/iter_007.json`,
		Title: `Finding find_007 (iteration 7, hyp_004)`,
		Text: `Iteration 7 decided DRILL_DOWN. measure the candidate segments without overlap and test them against daily noise
Finding find_007: Measured as non-overlapping parts, the 5 candidate segments account for 74% of the change; 3 of them are significant after correction (q<=0.05), together 87%.
SQL: SELECT CASE WHEN CAST("sessions"."traffic_source" AS VARCHAR) = 'paid_social' THEN 1 WHEN CAST("sessions"."device" AS VARCHAR) = 'ios' AND CAST("sessions"."country" AS VARCHAR) = 'DE' THEN 2 WHEN CAST("sessions"."device" AS VARCHAR) = 'android' AND CAST("sessions"."country" AS VARCHAR) = 'DE' THEN 3 WHEN CAST("sessions"."device" AS VARCHAR) = 'android' AND CAST("sessions"."traffic_source" AS VARCHAR) = 'referral' AND CAST("sessions"."country" AS VARCHAR) = 'US' THEN 4 WHEN CAST("sessions"."device" AS VARCHAR) = 'desktop' AND CAST("sessions"."traffic_source" AS VARCHAR) = 'referral' AND CAST("sessions"."country" AS VARCHAR) = 'DE' THEN 5 ELSE 0 END AS part, CASE WHEN CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05' THEN 1 ELSE 0 END AS period, sum(converted) AS num, count_star() AS den, COUNT(*) AS n
FROM sessions
WHERE (CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-08' AND DATE '2024-04-21' OR CAST(sessions.session_date AS DATE) BETWEEN DATE '2024-04-22' AND DATE '2024-05-05')`,
	},
	{
		Ref:   `analysis/iterations/iter_008.json`,
		Title: `Finding find_008 (iteration 8, hyp_007)`,
		Text: `Iteration 8 decided ANALYZE. check whether anything stands out from a uniform shift
Finding find_008: The change is not uniform: traffic_source=paid_social alone explains 59% of it.`,
	},
	{
		Ref:   `analysis/iterations/iter_009.json`,
		Title: `Iteration 9: CONCLUDE`,
		Text: `Iteration 9 decided CONCLUDE. no unexamined hypothesis is left
Every planned check has run; 4 hypotheses confirmed, 3 ruled out.`,
	},
	{
		Ref:   `results/explanations.json#1`,
		Title: `Explanation 1: Mix shift: traffic_source=paid_social grew from 10.1% to 19.9% of the population`,
		Text:  `1. Mix shift: traffic_source=paid_social grew from 10.1% to 19.9% of the population (Most Likely, mix): Ranked 1 by the measured share of the change it accounts for (59%). It accounts for -0.27 pp (59%) of the change, measured as a non-overlapping part of the population; its own day-level change is significant (q<0.0001 after correcting for 16 segments). traffic_source=paid_social runs at 1.44% against 3.68% overall; as its share grew, the overall metric moved even though its own rate barely changed (1.69% to 1.44%).`,
	},
	{
		Ref:   `results/explanations.json#2`,
		Title: `Explanation 2: Lower rate in device=ios AND country=DE: 5.70% to 2.36%`,
		Text:  `2. Lower rate in device=ios AND country=DE: 5.70% to 2.36% (Likely, rate): Ranked 2 by the measured share of the change it accounts for (42%). It accounts for -0.19 pp (42%) of the change, measured as a non-overlapping part of the population; its own day-level change is significant (q=0.0005 after correcting for 16 segments). The metric within device=ios AND country=DE itself moved from 5.70% to 2.36% while its share of the population stayed near 5.4%.`,
	},
	{
		Ref:   `results/explanations.json#3`,
		Title: `Explanation 3: Higher rate in device=android AND country=DE: 4.15% to 5.62%`,
		Text:  `3. Higher rate in device=android AND country=DE: 4.15% to 5.62% (Likely, rate): Ranked 3 by the measured share of the change it accounts for (-13%). It accounts for +0.06 pp (-13%) of the change, measured as a non-overlapping part of the population; its own day-level change is significant (q=0.0433 after correcting for 16 segments). The metric within device=android AND country=DE itself moved from 4.15% to 5.62% while its share of the population stayed near 4.3%.`,
	},
}
