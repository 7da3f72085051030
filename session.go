package quarry

import (
	"time"
)

// Limits from the specification. MaxFileBytes is the default upload limit;
// callers may configure a different one.
const (
	MaxFilesPerSession      = 10
	MaxFileBytes            = 50 << 20 // 52428800
	MaxOriginalNameLen      = 255
	MaxDescriptionLen       = 2000
	MaxBusinessContextLen   = 5000
	MaxMetricSQLLen         = 2000
	MaxInvestigationPrompt  = 2000
	MaxTimeFormatLen        = 64
	MaxChatMessageLen       = 5000
	DefaultSessionTimeout   = 24 * time.Hour
	MaxLoopIterations       = 15
	StallThreshold          = 3
	MaxSampleValues         = 5
	MinHypotheses           = 5
	MaxHypotheses           = 7
	MaxFindingSummaryLen    = 500
	MaxExplanationTitleLen  = 100
	MaxHypothesisTitleLen   = 100
	MaxCausalStoryLen       = 500
	MaxExplanationReasonLen = 1000
)

// ErrorInfo is an Error as stored in artifacts and sent over the wire.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// NewErrorInfo converts err for storage.
func NewErrorInfo(err error) *ErrorInfo {
	if err == nil {
		return nil
	}
	info := &ErrorInfo{Code: ErrorCode(err), Message: ErrorMessage(err)}
	if e, ok := err.(*Error); ok {
		info.Hint = e.Hint
	}
	return info
}

// FileSchema is the inferred schema of one file.
type FileSchema struct {
	Columns []Column `json:"columns"`
	// Note says what was done to read the file that a person would want
	// to know, e.g. a title line above the column names skipped.
	Note string `json:"note,omitempty"`
}

// Column roles.
const (
	RoleDimension = "dimension"
	RoleMeasure   = "measure"
	RoleID        = "id"
	RoleTimestamp = "timestamp"
)

// Column data types.
const (
	TypeString   = "string"
	TypeInteger  = "integer"
	TypeFloat    = "float"
	TypeDate     = "date"
	TypeDatetime = "datetime"
	TypeBoolean  = "boolean"
)

// Column describes one column of an uploaded file.
type Column struct {
	Name         string   `json:"name"`
	InferredType string   `json:"inferred_type"` // one of the Role constants
	DataType     string   `json:"data_type"`     // one of the Type constants
	Cardinality  int64    `json:"cardinality"`
	SampleValues []string `json:"sample_values"`
	Nullable     bool     `json:"nullable"`
	NullCount    int64    `json:"null_count"`
	// Format is the layout the column's text was read with when it was
	// not in a form the engine reads by itself: a strptime layout such as
	// "%d-%b-%Y", "ISO 8601", or a number style such as "1,234.5".
	Format string `json:"format,omitempty"`
	// Note says in words how the column was read or named, when that is
	// not obvious from the file: "dates read from text as %d-%b-%Y (e.g.
	// 15-May-2017)", "numbers read from text with thousands separators".
	Note string `json:"note,omitempty"`
}

// DateRange is an inclusive range of days.
type DateRange struct {
	Start Date `json:"start"`
	End   Date `json:"end"`
}

// Days returns the number of days in r, counting both ends.
func (r DateRange) Days() int {
	return int(r.End.Time().Sub(r.Start.Time()).Hours()/24) + 1
}

// Contains reports whether d is inside r.
func (r DateRange) Contains(d Date) bool {
	return !d.Time().Before(r.Start.Time()) && !d.Time().After(r.End.Time())
}

func (r DateRange) String() string { return r.Start.String() + ".." + r.End.String() }

// Validate reports INVALID_DATE_RANGE when a bound is missing or the end is
// before the start. name says which period is wrong.
func (r DateRange) Validate(name string) error {
	if r.Start.IsZero() || r.End.IsZero() {
		return Errorf(ECodeInvalidDateRange, "%s period needs a start and an end date", name)
	}
	if r.End.Time().Before(r.Start.Time()) {
		return Errorf(ECodeInvalidDateRange, "%s period ends (%s) before it starts (%s)", name, r.End, r.Start)
	}
	return nil
}

// ParseDateRange parses "YYYY-MM-DD..YYYY-MM-DD".
func ParseDateRange(s string) (DateRange, error) {
	var r DateRange
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == '.' {
			start, err := ParseDate(s[:i])
			if err != nil {
				return r, err
			}
			end, err := ParseDate(s[i+2:])
			if err != nil {
				return r, err
			}
			return DateRange{Start: start, End: end}, nil
		}
	}
	return r, Errorf(ECodeInvalidDateRange, "date range %q is not of the form YYYY-MM-DD..YYYY-MM-DD", s)
}

// Date is a calendar day, encoded in JSON as "YYYY-MM-DD".
type Date struct{ t time.Time }

// NewDate returns the date of t in t's location.
func NewDate(t time.Time) Date {
	y, m, d := t.Date()
	return Date{time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
}

// ParseDate parses "YYYY-MM-DD".
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, Errorf(ECodeInvalidDateRange, "%q is not a date of the form YYYY-MM-DD", s)
	}
	return Date{t}, nil
}

// MustParseDate is ParseDate for constants in tests and examples.
func MustParseDate(s string) Date {
	d, err := ParseDate(s)
	if err != nil {
		panic(err)
	}
	return d
}

func (d Date) Time() time.Time       { return d.t }
func (d Date) IsZero() bool          { return d.t.IsZero() }
func (d Date) AddDays(n int) Date    { return Date{d.t.AddDate(0, 0, n)} }
func (d Date) Weekday() time.Weekday { return d.t.Weekday() }

func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return d.t.Format(time.DateOnly)
}

func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d *Date) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = Date{}
		return nil
	}
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
