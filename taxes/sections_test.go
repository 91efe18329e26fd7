package taxes

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// citation finds a cited section ("s.44ADA", "ss.288A and 288B",
// "s.408(1)", "section 44ADA") and captures its numbers.
var citation = regexp.MustCompile(`\b(?:ss?\.|sections? )(\d+[A-Z]*)(?: and (\d+[A-Z]*))?`)

// sectionNumbers are the numbers an Act's table cites ("44ADA", "288A").
func sectionNumbers(a india.Act) map[string]bool {
	out := map[string]bool{}
	for _, s := range a.Sections() {
		for _, m := range citation.FindAllStringSubmatch(s, -1) {
			out[m[1]] = true
			if m[2] != "" {
				out[m[2]] = true
			}
		}
	}
	return out
}

// TestNotesCiteTheirOwnAct walks every note and warning of every supported
// year, in every position a year can be in (no advance tax, presumptive,
// above the limit, interest owed, provisional), and fails on a section of
// the other Act, or on "FY" wording in a year under the 2025 Act.
func TestNotesCiteTheirOwnAct(t *testing.T) {
	first, last := india.SupportedYears(time.Date(2027, 6, 1, 0, 0, 0, 0, india.IST))
	acts := india.Acts()
	for y := first.StartYear; y <= last.StartYear; y++ {
		fy := india.FY{StartYear: y}
		own := india.ActOf(fy)
		other := acts[0]
		if own.Name == other.Name {
			other = acts[1]
		}
		ownNumbers, forbidden := sectionNumbers(own), sectionNumbers(other)
		for n := range ownNumbers {
			delete(forbidden, n)
		}
		for _, gross := range []int64{5_00_000_00, 24_60_000_00, 74_00_000_00, 80_00_000_00} {
			l, err := india.ComputeLiability(fy, gross)
			if err != nil {
				t.Fatal(err)
			}
			in := Year{FY: fy, Act: own, Liability: l}
			payments := []india.TaxPayment{{Kind: india.PaymentSelfAssessment, PaidOn: fy.AssessmentYear()[:4] + "-09-10", Amount: 100_00}}
			pos, err := india.ComputePosition(l, payments, fy.AssessmentYear()[:4]+"-10-01")
			if err != nil {
				t.Fatal(err)
			}
			in.Interest, in.Paid = pos.Interest, pos.Paid
			notes := []string{l.AdvanceTaxNote(), l.InterestNote(), l.PresumptiveUnavailable(), l.ProvisionalNote(), india.ProvisionalNote(fy, india.LatestTableFY())}
			if l.Presumptive {
				input := itr4Input(in, store.Profile{})
				input.GeneratedAt = time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC)
				n, err := documents.BuildITR4Notes(input)
				if err != nil {
					t.Fatal(err)
				}
				notes = append(notes, n.Note, n.Rounding, n.Section, n.Schema.Note)
				notes = append(notes, n.Warnings...)
				for _, g := range n.LeftForFiler {
					notes = append(notes, g.Reason)
				}
			}
			for _, text := range notes {
				for _, m := range citation.FindAllStringSubmatch(text, -1) {
					for _, num := range m[1:] {
						if forbidden[num] {
							t.Errorf("%s (%s): cites %q of the %s:\n%s", india.ActOf(fy).Label(fy), own.Name, m[0], other.Name, text)
						}
					}
				}
				if own.Year == "tax year" && strings.Contains(text, "FY 20") {
					t.Errorf("%s: says FY in a tax year of the 2025 Act:\n%s", fy, text)
				}
			}
		}
	}
}
