package india

import "time"

// ExPostFacto is the label of an export a LUT covers although it was made
// before the LUT was furnished in its financial year: Circular
// 37/11/2018-GST (15 March 2018), para 4.1, lets the LUT be accepted ex post
// facto for such exports, so zero-rating is not denied for the delay.
const ExPostFacto = "ex post facto (Circular 37/11/2018-GST, para 4.1)"

// LUT is a Letter of Undertaking (Form GST RFD-11, rule 96A) as the figures
// use it: furnished for one financial year, deemed accepted when the
// portal generates its ARN (Circular 40/14/2018-GST), and valid for that
// year only (Circular 8/8/2017-GST). It covers the exports of its year up
// to Until; FurnishedOn is "" for a LUT whose date payoutd was never told
// (the profile's lutNumber and lutValidUntil).
type LUT struct {
	ARN         string
	FY          FY
	FurnishedOn string // YYYY-MM-DD, IST
	Until       string // the last day covered, YYYY-MM-DD
}

// LUTOf reads the profile's LUT (lutNumber, lutValidUntil): it covers the
// financial year that contains validUntil, from 1 April up to validUntil.
// One without a number or a readable date covers nothing.
func LUTOf(number, validUntil string) LUT {
	until, err := time.ParseInLocation(time.DateOnly, validUntil, IST)
	if number == "" || err != nil {
		return LUT{}
	}
	return LUT{ARN: number, FY: FYOf(until), Until: validUntil}
}

// LUTFurnished is a LUT recorded with its ARN, financial year and the date
// it was furnished: it covers every export of its year.
func LUTFurnished(arn string, fy FY, furnishedOn string) LUT {
	return LUT{ARN: arn, FY: fy, FurnishedOn: furnishedOn, Until: DateOf(fy.End().Add(-time.Millisecond))}
}

// Covers reports whether the LUT covers an export of an IST day.
func (l LUT) Covers(day string) bool {
	return l.Until != "" && day >= DateOf(l.FY.Start()) && day <= l.Until
}

// ExPostFacto reports whether an export of day it covers was made before
// the LUT was furnished.
func (l LUT) ExPostFacto(day string) bool { return l.FurnishedOn != "" && day < l.FurnishedOn }

// LUTs are a supplier's LUTs, at most one per financial year in use.
type LUTs []LUT

// Cover is the LUT that covers an export of day, if any.
func (ls LUTs) Cover(day string) (LUT, bool) {
	for _, l := range ls {
		if l.Covers(day) {
			return l, true
		}
	}
	return LUT{}, false
}

// For is the LUT of fy, if any: a furnished record before the profile's.
func (ls LUTs) For(fy FY) (LUT, bool) {
	var found LUT
	for _, l := range ls {
		if l.Until != "" && l.FY == fy && (found.Until == "" || found.FurnishedOn == "") {
			found = l
		}
	}
	return found, found.Until != ""
}
