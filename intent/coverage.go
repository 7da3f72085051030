package intent

import (
	"strconv"
	"time"

	"github.com/quarry-dev/quarry"
)

// periodInData refuses a period the data does not reach: "total sales in
// 2022" over sales of 2019 to 2021 has no answer, which is not an answer
// of zero. A period that overlaps the data is answered over the part the
// data has; each period of a comparison must overlap it.
func (p *parser) periodInData() error {
	if p.date != nil {
		lo, ok1 := day(p.date.Min)
		hi, ok2 := day(p.date.Max)
		if !ok1 || !ok2 {
			return nil
		}
		for _, tr := range []*TimeRange{p.in.Time, p.in.Compare} {
			if tr == nil {
				continue
			}
			s, err1 := time.Parse("2006-01-02", tr.Start)
			e, err2 := time.Parse("2006-01-02", tr.End)
			if err1 == nil && err2 == nil && (!e.After(lo) || s.After(hi)) {
				return outsideData(tr.Label, p.date.Name, lo.Format("2006-01-02"), hi.Format("2006-01-02"))
			}
		}
		return nil
	}
	yc := p.yearColumn()
	if yc == nil {
		return nil
	}
	lo, err1 := strconv.ParseFloat(yc.Min, 64)
	hi, err2 := strconv.ParseFloat(yc.Max, 64)
	if err1 != nil || err2 != nil {
		return nil
	}
	for _, f := range p.in.Filters {
		if f.Column != yc.Name {
			continue
		}
		for _, v := range f.Values {
			y, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			out, label := false, v
			switch f.Op {
			case "=", "in":
				out = y < lo || y > hi
			case ">=":
				out, label = y > hi, "from "+v
			case ">":
				out, label = y >= hi, "after "+v
			case "<=":
				out, label = y < lo, "up to "+v
			case "<":
				out, label = y <= lo, "before "+v
			}
			if out {
				return outsideData(label, yc.Name, yc.Min, yc.Max)
			}
		}
	}
	return nil
}

// outsideData is the error of a period the data does not reach.
func outsideData(period, col, lo, hi string) error {
	return quarry.Errorf(quarry.ECodeNeedsClarification, "I could not answer this as asked: the data has no rows for %s (%s runs from %s to %s)",
		period, col, lo, hi).WithHint("ask about a period the data covers")
}
