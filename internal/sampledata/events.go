package sampledata

import (
	"io"
	"math"

	"github.com/quarry-dev/quarry"
)

// pipeline generates events.csv: revenue events collected by several
// ingestion systems, one of which stops near the end of the data.
type pipeline struct {
	seed       int64
	baseline   quarry.DateRange
	comparison quarry.DateRange
	perDay     float64
	// stoppedFrom is the first day with no rows from eu_batch.
	stoppedFrom quarry.Date
	// lastDayKept is the share of the last day's rows that arrived: the
	// export ran before the day was complete.
	lastDayKept float64
}

// eventCountries lists each country's ingestion system and share of
// events. eu_batch carries France and Germany only.
var eventCountries = []struct {
	code, system string
	weight       float64
}{
	{"US", "amer_stream", 0.30}, {"CA", "amer_stream", 0.06}, {"MX", "amer_stream", 0.05},
	{"BR", "amer_stream", 0.06}, {"FR", "eu_batch", 0.10}, {"DE", "eu_batch", 0.13},
	{"GB", "eu_stream", 0.10}, {"ES", "eu_stream", 0.05}, {"IT", "eu_stream", 0.05},
	{"NL", "eu_stream", 0.04}, {"JP", "apac_stream", 0.03}, {"AU", "apac_stream", 0.03},
}

var (
	eventPlatforms = []string{"ios", "android", "web"}
	eventPlatShare = []float64{0.38, 0.34, 0.28}
)

const firstEventID = 70000001

// write writes events.csv.
func (p pipeline) write(w io.Writer) error {
	r := newRand(p.seed)
	cw := newCSVWriter(w)
	cw.header("event_id", "event_date", "country", "platform", "source_system", "value")
	weights := make([]float64, len(eventCountries))
	for i, c := range eventCountries {
		weights[i] = c.weight
	}
	countryPick, platformPick := newPicker(weights), newPicker(eventPlatShare)
	id := int64(firstEventID)
	span := quarry.DateRange{Start: p.baseline.Start, End: p.comparison.End}
	for _, d := range days(span) {
		volume := p.perDay * math.Exp(0.03*r.NormFloat64())
		if weekend(d) {
			volume *= 0.85
		}
		stopped := !d.Time().Before(p.stoppedFrom.Time())
		partial := d == p.comparison.End
		for range poisson(r, volume) {
			c := eventCountries[countryPick.pick(r)]
			platform := platformPick.pick(r)
			value := logNormal(r, 35, 0.7)
			if stopped && c.system == "eu_batch" {
				continue
			}
			if partial && !bernoulli(r, p.lastDayKept) {
				continue
			}
			cw.integer(id)
			cw.str(d.String())
			cw.str(c.code)
			cw.str(eventPlatforms[platform])
			cw.str(c.system)
			cw.money(value)
			cw.end()
			id++
		}
	}
	return cw.flush()
}
