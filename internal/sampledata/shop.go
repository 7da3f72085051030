package sampledata

import (
	"io"
	"math"
	"math/rand/v2"

	"github.com/quarry-dev/quarry"
)

// shop generates an online shop's orders.csv and customers.csv. Causes are
// switched on by its fields; the zero values of keepAndroid52,
// enterpriseAmount and keepAll mean "no change".
type shop struct {
	seed       int64
	baseline   quarry.DateRange
	comparison quarry.DateRange
	perDay     float64 // mean orders on an average day
	// keepAndroid52 is the share of android 5.2 orders that still happen in
	// the comparison period (a broken release loses the rest).
	keepAndroid52 float64
	// enterpriseAmount multiplies enterprise order amounts in the
	// comparison period.
	enterpriseAmount float64
	// keepAll is the share of all orders kept in the comparison period: a
	// small diffuse decline that no segment explains.
	keepAll float64
}

// Customer segments and their order behaviour. Weekend factors differ:
// consumers shop more at weekends, businesses much less.
var (
	segmentNames     = []string{"consumer", "smb", "enterprise"}
	segmentCustomers = []float64{0.70, 0.25, 0.05} // share of customers
	segmentOrders    = []float64{0.70, 0.27, 0.03} // share of weekday orders
	segmentWeekend   = []float64{1.30, 0.60, 0.25}
	segmentMean      = []float64{42, 95, 215} // mean order amount
	segmentSigma     = []float64{0.55, 0.50, 0.45}
)

// Countries of the shop's customers with their share, region and price
// level.
var shopCountries = []struct {
	code, region  string
	weight, price float64
}{
	{"US", "NA", 0.30, 1.00}, {"GB", "EMEA", 0.10, 1.00}, {"DE", "EMEA", 0.10, 1.00},
	{"FR", "EMEA", 0.08, 1.00}, {"BR", "LATAM", 0.08, 0.70}, {"IN", "APAC", 0.08, 0.50},
	{"CA", "NA", 0.06, 1.00}, {"ES", "EMEA", 0.05, 0.90}, {"IT", "EMEA", 0.05, 0.90},
	{"MX", "LATAM", 0.04, 0.70}, {"JP", "APAC", 0.03, 1.10}, {"AU", "APAC", 0.03, 1.05},
}

var (
	shopPlatforms = []string{"ios", "android", "web"}
	platformShare = []float64{0.40, 0.35, 0.25}
	appVersions   = []string{"5.0", "5.1", "5.2"}
	versionShare  = []float64{0.25, 0.50, 0.25}
	shopChannels  = []string{"organic", "paid_search", "paid_social", "email", "affiliate", "direct"}
	channelShare  = []float64{0.34, 0.22, 0.12, 0.14, 0.08, 0.10}
)

const (
	firstCustomerID = 20001
	customerCount   = 6000
	firstOrderID    = 1000001
)

type customer struct {
	id      int64
	segment int
	country int
	signup  quarry.Date
}

// customers draws the customer base; orders.csv and customers.csv both
// start from it, so both writers call it on a fresh generator.
func (s shop) customers(r *rand.Rand) ([]customer, [][]int, []picker) {
	segPick, countryPick := newPicker(segmentCustomers), newPicker(countryWeights())
	all := make([]customer, customerCount)
	bySeg := make([][]int, len(segmentNames))
	for i := range all {
		c := customer{id: int64(firstCustomerID + i), segment: segPick.pick(r), country: countryPick.pick(r)}
		// Enterprise accounts are older; the rest signed up up to the
		// week before the data starts.
		from, span := date("2019-01-01"), 1880
		if c.segment == 2 {
			from, span = date("2018-01-01"), 2000
		}
		c.signup = from.AddDays(r.IntN(span))
		all[i] = c
		bySeg[c.segment] = append(bySeg[c.segment], i)
	}
	// Some customers order far more often than others.
	activity := make([]picker, len(segmentNames))
	for g, idx := range bySeg {
		w := make([]float64, len(idx))
		for i := range w {
			w[i] = logNormal(r, 1, 0.5)
		}
		activity[g] = newPicker(w)
	}
	return all, bySeg, activity
}

func countryWeights() []float64 {
	w := make([]float64, len(shopCountries))
	for i, c := range shopCountries {
		w[i] = c.weight
	}
	return w
}

// writeCustomers writes customers.csv.
func (s shop) writeCustomers(w io.Writer) error {
	all, _, _ := s.customers(newRand(s.seed))
	cw := newCSVWriter(w)
	cw.header("customer_id", "segment", "region", "signup_date")
	for _, c := range all {
		cw.integer(c.id)
		cw.str(segmentNames[c.segment])
		cw.str(shopCountries[c.country].region)
		cw.str(c.signup.String())
		cw.end()
	}
	return cw.flush()
}

// writeOrders writes orders.csv, one day at a time from the baseline's
// first day to the comparison's last.
func (s shop) writeOrders(w io.Writer) error {
	r := newRand(s.seed)
	all, bySeg, activity := s.customers(r)
	platformPick, versionPick, channelPick := newPicker(platformShare), newPicker(versionShare), newPicker(channelShare)
	cw := newCSVWriter(w)
	cw.header("order_id", "order_date", "customer_id", "platform", "app_version", "country", "channel", "amount")
	id := int64(firstOrderID)
	span := quarry.DateRange{Start: s.baseline.Start, End: s.comparison.End}
	for _, d := range days(span) {
		inComparison := s.comparison.Contains(d)
		segWeights := make([]float64, len(segmentNames))
		volume := 0.0
		for g := range segWeights {
			segWeights[g] = segmentOrders[g]
			if weekend(d) {
				segWeights[g] *= segmentWeekend[g]
			}
			volume += segWeights[g]
		}
		segPick := newPicker(segWeights)
		// Days differ by more than Poisson noise: weather, promotions.
		dayNoise := math.Exp(0.02 * r.NormFloat64())
		n := poisson(r, s.perDay*volume*dayNoise)
		for range n {
			g := segPick.pick(r)
			c := all[bySeg[g][activity[g].pick(r)]]
			platform := platformPick.pick(r)
			version := "web"
			if platform != 2 {
				version = appVersions[versionPick.pick(r)]
			}
			channel := channelPick.pick(r)
			amount := logNormal(r, segmentMean[g]*shopCountries[c.country].price, segmentSigma[g])
			if inComparison {
				if s.keepAndroid52 > 0 && platform == 1 && version == "5.2" && !bernoulli(r, s.keepAndroid52) {
					continue
				}
				if s.keepAll > 0 && !bernoulli(r, s.keepAll) {
					continue
				}
				if s.enterpriseAmount > 0 && g == 2 {
					amount *= s.enterpriseAmount
				}
			}
			cw.integer(id)
			cw.str(d.String())
			cw.integer(c.id)
			cw.str(shopPlatforms[platform])
			cw.str(version)
			cw.str(shopCountries[c.country].code)
			cw.str(shopChannels[channel])
			cw.money(amount)
			cw.end()
			id++
		}
	}
	return cw.flush()
}
