package models

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"
)

// Date is a calendar date with no time of day or zone: `date` (YYYY-MM-DD) on the wire, DATE
// on PostgreSQL and the same text on SQLite, so dates compare as stored in both dialects.
type Date struct{ t time.Time }

const dateLayout = "2006-01-02"

// NewDate is the date of year, month and day; out-of-range values normalise as time.Date does.
func NewDate(year int, month time.Month, day int) Date {
	return Date{time.Date(year, month, day, 0, 0, 0, 0, time.UTC)}
}

// DateOf is the calendar date of t in UTC.
func DateOf(t time.Time) Date {
	y, m, d := t.UTC().Date()
	return NewDate(y, m, d)
}

// ParseDate reads a YYYY-MM-DD date.
func ParseDate(s string) (Date, error) {
	var d Date
	err := d.scanText(s)
	return d, err
}

func (d Date) String() string { return d.t.Format(dateLayout) }

// Time is the date's midnight in UTC.
func (d Date) Time() time.Time { return d.t }

// Day is the day of the month, 1 to 31.
func (d Date) Day() int { return d.t.Day() }

// AddDays is the date n days later (earlier when n is negative).
func (d Date) AddDays(n int) Date { return Date{d.t.AddDate(0, 0, n)} }

// AddMonths is the date n months later on day, or on the month's last day when it is
// shorter: 31 Jan + 1 month on day 31 is 28 Feb, + 2 months is 31 Mar.
func (d Date) AddMonths(n, day int) Date {
	y, m, _ := d.t.Date()
	last := NewDate(y, m+time.Month(n)+1, 0).Day()
	return NewDate(y, m+time.Month(n), min(day, last))
}

// Compare is -1, 0 or +1 as d is before, equal to or after o.
func (d Date) Compare(o Date) int { return d.t.Compare(o.t) }

// IsZero reports whether d is the zero Date, which no decoding produces.
func (d Date) IsZero() bool { return d.t.IsZero() }

func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

func (d *Date) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	return d.scanText(s)
}

// Value stores the date as YYYY-MM-DD text, which PostgreSQL reads into a DATE column.
func (d Date) Value() (driver.Value, error) { return d.String(), nil }

// Scan reads a DATE (PostgreSQL answers a time) or YYYY-MM-DD text (SQLite).
func (d *Date) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*d = DateOf(v)
		return nil
	case string:
		return d.scanText(v)
	case []byte:
		return d.scanText(string(v))
	}
	return fmt.Errorf("scan date from %T", src)
}

func (d *Date) scanText(s string) error {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		return fmt.Errorf("date %q: %w", s, err)
	}
	d.t = t
	return nil
}
