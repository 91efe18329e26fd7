package input

import (
	"errors"
	"regexp"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/india"
)

// arnRE is the GST portal's application reference number: 15 upper-case
// letters and digits.
var arnRE = regexp.MustCompile(`^[A-Z0-9]{15}$`)

// LUT is a Letter of Undertaking furnished on the GST portal, as POST
// /tax/luts and the console's LUT form take it.
type LUT struct {
	ARN         string `json:"arn"`
	FY          string `json:"fy"`
	FurnishedOn string `json:"furnishedOn"`
}

// Validate checks each field on its own, then that the LUT was furnished by
// today and no later than its year's last day.
func (q *LUT) Validate(now time.Time) error {
	err := validation.ValidateStruct(q,
		validation.Field(&q.ARN, validation.Required, validation.Match(arnRE).Error("must be the 15-character ARN the GST portal generated for the LUT (upper-case letters and digits)")),
		validation.Field(&q.FY, validation.Required, isSupportedFY(now)),
		validation.Field(&q.FurnishedOn, validation.Required, validation.Date(time.DateOnly).Error("must be a date in the form YYYY-MM-DD")),
	)
	var fields validation.Errors
	if err != nil && !errors.As(err, &fields) {
		return err
	}
	if fields["fy"] == nil && fields["furnishedOn"] == nil {
		fy, _ := india.ParseFY(q.FY)
		last := india.DateOf(fy.End().Add(-time.Millisecond))
		switch {
		case q.FurnishedOn > india.DateOf(now):
			fields = addField(fields, "furnishedOn", "must not be in the future")
		case q.FurnishedOn > last:
			fields = addField(fields, "furnishedOn", "must be on or before the last day of "+q.FY+" ("+last+"): a LUT covers the exports of its own financial year")
		}
	}
	if len(fields) > 0 {
		return FieldErrors(fields)
	}
	return nil
}

func addField(f validation.Errors, name, msg string) validation.Errors {
	if f == nil {
		f = validation.Errors{}
	}
	f[name] = errors.New(msg)
	return f
}
