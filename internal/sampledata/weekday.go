package sampledata

import (
	"io"
	"math"
	"time"

	"github.com/quarry-dev/quarry"
)

// calendarShop generates orders.csv for a shop whose weekend days sell about
// twice as much as weekdays and whose daily profile never changes.
type calendarShop struct {
	seed    int64
	span    quarry.DateRange
	weekday float64 // mean orders on an average weekday
}

var (
	calPlatforms = []string{"ios", "android", "web"}
	calPlatShare = []float64{0.38, 0.32, 0.30}
	calCountries = []string{"US", "GB", "DE", "FR", "CA", "AU"}
	calCtryShare = []float64{0.42, 0.16, 0.14, 0.11, 0.10, 0.07}
)

// weekendProfile is the daily volume relative to an average weekday:
// Friday evening starts the weekend, Saturday is the peak.
var weekendProfile = [7]float64{
	time.Sunday: 1.95, time.Monday: 0.95, time.Tuesday: 0.95, time.Wednesday: 1.0,
	time.Thursday: 1.0, time.Friday: 1.1, time.Saturday: 2.1,
}

const firstCalendarOrderID = 3000001

// write writes orders.csv for every day of the span.
func (c calendarShop) write(w io.Writer) error {
	r := newRand(c.seed)
	platformPick, countryPick, channelPick := newPicker(calPlatShare), newPicker(calCtryShare), newPicker(channelShare)
	cw := newCSVWriter(w)
	cw.header("order_id", "order_date", "platform", "country", "channel", "amount")
	id := int64(firstCalendarOrderID)
	for _, d := range days(c.span) {
		volume := c.weekday * weekendProfile[d.Weekday()] * math.Exp(0.015*r.NormFloat64())
		for range poisson(r, volume) {
			cw.integer(id)
			cw.str(d.String())
			cw.str(calPlatforms[platformPick.pick(r)])
			cw.str(calCountries[countryPick.pick(r)])
			cw.str(shopChannels[channelPick.pick(r)])
			cw.money(logNormal(r, 48, 0.6))
			cw.end()
			id++
		}
	}
	return cw.flush()
}
