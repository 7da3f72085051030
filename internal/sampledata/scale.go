package sampledata

import (
	"io"

	"github.com/quarry-dev/quarry"
	"github.com/quarry-dev/quarry/investigation"
)

// The data WriteOrders generates: orders over four weeks with one planted
// cause, for benchmarks at 500K and 5M rows.
var (
	OrdersBaseline   = period("2024-03-04", "2024-03-17")
	OrdersComparison = period("2024-03-18", "2024-03-31")
	// OrdersCause is WriteOrders' planted cause: android orders of
	// electronics lose 70% of their volume in the comparison period.
	// Nothing else changes, so it accounts for the whole drop up to noise.
	OrdersCause = Cause{
		Kind: investigation.KindVolume, Segment: seg("category", "electronics", "platform", "android"), Table: "orders",
		Note:        "android electronics orders fall 70% in the comparison period; revenue falls ~11%",
		ApproxShare: 1,
	}
)

// OrdersMetricSQL is the metric of WriteOrders' data.
const OrdersMetricSQL = "SELECT SUM(amount) FROM orders"

// OrdersDimensions are the six columns of WriteOrders' data an
// investigation slices by.
var OrdersDimensions = []string{"platform", "country", "city", "channel", "category", "app_version"}

// ordersKeep is the share of OrdersCause's orders kept in the comparison.
const ordersKeep = 0.30

// ordersDims holds the value lists and samplers of WriteOrders' six
// dimensions.
type ordersDims struct {
	platform, channel, category, version, country picker
	cityOf                                        []picker // per country, over cityIdx[country]
	cityIdx                                       [][]int
	cities                                        []string
}

var (
	orderPlatforms  = []string{"ios", "android", "web"}
	orderChannels   = []string{"organic", "paid_search", "paid_social", "email", "affiliate", "direct", "referral", "display"}
	orderChanShare  = []float64{0.30, 0.20, 0.12, 0.12, 0.07, 0.10, 0.05, 0.04}
	orderVersions   = []string{"4.8", "4.9", "5.0", "5.1", "5.2", "5.3", "5.4"}
	orderVerShare   = []float64{0.03, 0.05, 0.10, 0.17, 0.25, 0.28, 0.12}
	orderCategories = []string{
		"electronics", "home", "fashion", "beauty", "toys", "sports", "books", "grocery",
		"garden", "automotive", "pets", "office", "music", "games", "jewelry", "shoes",
		"baby", "health", "kitchen", "tools", "outdoor", "crafts", "luggage", "software",
	}
	orderCountries = []string{
		"US", "GB", "DE", "FR", "BR", "IN", "CA", "ES", "IT", "MX", "JP", "AU", "NL", "SE",
		"PL", "TR", "KR", "AR", "CO", "CL", "ZA", "NG", "EG", "SA", "AE", "ID", "TH", "VN",
		"PH", "MY", "SG", "NZ", "IE", "PT", "BE", "AT", "CH", "DK", "NO", "FI",
	}
	cityStems = []string{"Ash", "Bel", "Brook", "Cedar", "Clear", "Elm", "Fair", "Glen", "Green", "Hazel",
		"Lake", "Maple", "Mill", "North", "Oak", "Pine", "River", "Rose", "Stone", "West"}
	citySuffixes = []string{"ford", "field", "ton", "ville", "wood", "bridge", "haven", "port", "dale",
		"mont", "view", "burg", "crest", "side", "stead"}
)

func newOrdersDims() ordersDims {
	d := ordersDims{
		platform: newPicker([]float64{0.42, 0.36, 0.22}),
		channel:  newPicker(orderChanShare),
		category: newPicker(zipfWeights(len(orderCategories), 0.8)),
		version:  newPicker(orderVerShare),
		country:  newPicker(zipfWeights(len(orderCountries), 1.1)),
	}
	// 300 city names, dealt round-robin to the countries.
	for _, stem := range cityStems {
		for _, suf := range citySuffixes {
			d.cities = append(d.cities, stem+suf)
		}
	}
	d.cityIdx = make([][]int, len(orderCountries))
	for i := range d.cities {
		c := i % len(orderCountries)
		d.cityIdx[c] = append(d.cityIdx[c], i)
	}
	for _, idx := range d.cityIdx {
		d.cityOf = append(d.cityOf, newPicker(zipfWeights(len(idx), 1)))
	}
	return d
}

// WriteOrders writes orders.csv with exactly rows orders between
// OrdersBaseline's start and OrdersComparison's end: order_id, order_date,
// six dimensions (platform, country, city with 300 values, channel,
// category, app_version) and amount, with OrdersCause planted. Rows are in
// date order, and the same seed gives the same bytes.
func WriteOrders(w io.Writer, rows int, seed int64) error {
	r := newRand(seed)
	d := newOrdersDims()
	electronics, android := 0, 1
	pCause := d.category.prob(electronics) * d.platform.prob(android)
	span := days(quarry.DateRange{Start: OrdersBaseline.Start, End: OrdersComparison.End})
	weights := make([]float64, len(span))
	for i, day := range span {
		weights[i] = weekendProfile[day.Weekday()]
		if OrdersComparison.Contains(day) {
			weights[i] *= 1 - (1-ordersKeep)*pCause
		}
	}
	quota := apportion(rows, weights)
	cw := newCSVWriter(w)
	cw.header("order_id", "order_date", "platform", "country", "city", "channel", "category", "app_version", "amount")
	id := int64(1)
	for i, day := range span {
		ds := day.String()
		inComparison := OrdersComparison.Contains(day)
		for range quota[i] {
			var platform, category int
			for {
				platform, category = d.platform.pick(r), d.category.pick(r)
				if !inComparison || platform != android || category != electronics || bernoulli(r, ordersKeep) {
					break
				}
			}
			country := d.country.pick(r)
			city := d.cityIdx[country][d.cityOf[country].pick(r)]
			version := "web"
			if platform != 2 {
				version = orderVersions[d.version.pick(r)]
			}
			// Price levels differ by category: early categories cost more.
			mean := 25 + 120/float64(category+1)
			cw.integer(id)
			cw.str(ds)
			cw.str(orderPlatforms[platform])
			cw.str(orderCountries[country])
			cw.str(d.cities[city])
			cw.str(orderChannels[d.channel.pick(r)])
			cw.str(orderCategories[category])
			cw.str(version)
			cw.money(logNormal(r, mean, 0.6))
			cw.end()
			id++
		}
	}
	return cw.flush()
}

// apportion splits total into integer parts proportional to weights, by
// largest remainder, so the parts add up to total exactly.
func apportion(total int, weights []float64) []int {
	sum := 0.0
	for _, w := range weights {
		sum += w
	}
	parts := make([]int, len(weights))
	rem := make([]float64, len(weights))
	given := 0
	for i, w := range weights {
		exact := float64(total) * w / sum
		parts[i] = int(exact)
		rem[i] = exact - float64(parts[i])
		given += parts[i]
	}
	for ; given < total; given++ {
		best := 0
		for i := range rem {
			if rem[i] > rem[best] {
				best = i
			}
		}
		parts[best]++
		rem[best] = -1
	}
	return parts
}
