package sampledata

import (
	"io"
	"math"

	"github.com/quarry-dev/quarry"
)

// funnel generates a shop's sessions.csv: one row per visit with whether it
// converted and the revenue it brought.
type funnel struct {
	seed       int64
	baseline   quarry.DateRange
	comparison quarry.DateRange
	// perDay is the mean number of sessions per day from every source but
	// paid_social.
	perDay float64
	// socialShare is paid_social's share of sessions before and during the
	// comparison period.
	socialShare, socialShareAfter float64
	// iosDERate multiplies the conversion of iOS sessions from Germany in
	// the comparison period (1 = no change).
	iosDERate float64
}

var (
	devices       = []string{"desktop", "ios", "android"}
	deviceShare   = []float64{0.36, 0.35, 0.29}
	deviceWeekend = []float64{0.70, 1.20, 1.15} // more phones at weekends
	deviceConv    = []float64{1.15, 1.00, 0.80}
	// paid_social traffic is mostly phones.
	socialDeviceShare = []float64{0.15, 0.45, 0.40}

	funnelCountries = []string{"US", "DE", "GB", "FR", "BR", "IN", "CA", "ES"}
	countryShare    = []float64{0.30, 0.18, 0.12, 0.10, 0.08, 0.10, 0.06, 0.06}
	countryConv     = []float64{1.00, 1.35, 1.00, 0.95, 0.80, 0.65, 1.00, 0.90}

	sources = []string{"organic", "paid_search", "email", "referral", "paid_social"}
	// Shares and conversion of the sources other than paid_social, which
	// is set per period.
	sourceShare = []float64{0.44, 0.28, 0.13, 0.15}
	sourceConv  = []float64{0.046, 0.044, 0.065, 0.038, 0.0160}
)

const (
	firstSessionID = 5000001
	// paidSocialDE is the index of DE in funnelCountries: the paid_social
	// campaign was not run in Germany, so German traffic is unchanged.
	paidSocialDE = 1
)

// write writes sessions.csv.
func (f funnel) write(w io.Writer) error {
	r := newRand(f.seed)
	sourcePick, countryPick := newPicker(sourceShare), newPicker(countryShare)
	socialCountry := make([]float64, len(countryShare))
	copy(socialCountry, countryShare)
	socialCountry[paidSocialDE] = 0
	socialCountryPick, socialDevicePick := newPicker(socialCountry), newPicker(socialDeviceShare)
	cw := newCSVWriter(w)
	cw.header("session_id", "session_date", "device", "country", "traffic_source", "converted", "revenue")
	id := int64(firstSessionID)
	span := quarry.DateRange{Start: f.baseline.Start, End: f.comparison.End}
	for _, d := range days(span) {
		inComparison := f.comparison.Contains(d)
		devWeights := make([]float64, len(deviceShare))
		for i := range devWeights {
			devWeights[i] = deviceShare[i]
			if weekend(d) {
				devWeights[i] *= deviceWeekend[i]
			}
		}
		devicePick := newPicker(devWeights)
		share := f.socialShare
		if inComparison {
			share = f.socialShareAfter
		}
		// Baseline paid_social sessions are spread like all traffic; the
		// campaign's extra sessions skip Germany.
		other := f.perDay * math.Exp(0.03*r.NormFloat64())
		if weekend(d) {
			other *= 1.1
		}
		social := other * f.socialShare / (1 - f.socialShare)
		extra := other*share/(1-share) - social
		n := poisson(r, other+social+extra)
		pSocial, pExtra := (social+extra)/(other+social+extra), 0.0
		if extra > 0 {
			pExtra = extra / (social + extra)
		}
		for range n {
			src, dev, ctry := 0, 0, 0
			if bernoulli(r, pSocial) {
				src = 4
				if bernoulli(r, pExtra) {
					dev, ctry = socialDevicePick.pick(r), socialCountryPick.pick(r)
				} else {
					dev, ctry = devicePick.pick(r), countryPick.pick(r)
				}
			} else {
				src, dev, ctry = sourcePick.pick(r), devicePick.pick(r), countryPick.pick(r)
			}
			p := sourceConv[src] * deviceConv[dev] * countryConv[ctry]
			if weekend(d) {
				p *= 0.92
			}
			if inComparison && dev == 1 && ctry == paidSocialDE && f.iosDERate > 0 {
				p *= f.iosDERate
			}
			cw.integer(id)
			cw.str(d.String())
			cw.str(devices[dev])
			cw.str(funnelCountries[ctry])
			cw.str(sources[src])
			if bernoulli(r, p) {
				cw.integer(1)
				cw.money(logNormal(r, 68, 0.5))
			} else {
				cw.str("0")
				cw.str("0")
			}
			cw.end()
			id++
		}
	}
	return cw.flush()
}
