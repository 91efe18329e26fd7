package india_test

import (
	"testing"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func TestPurposeCodes(t *testing.T) {
	t.Run("Count", func(t *testing.T) {
		is := is.New(t)
		// The source table: 149 current codes in 17 groups plus 15 legacy.
		all := india.PurposeCodes()
		is.Equal(len(all), 164)
		legacy := 0
		for i, p := range all {
			is.True(india.ValidPurposeCodeFormat(p.Code))
			is.True(p.Description != "")
			is.True(p.Group != "")
			if i > 0 {
				is.True(all[i-1].Code < p.Code) // sorted, no duplicates
			}
			if p.Legacy {
				legacy++
			}
		}
		is.Equal(legacy, 15)
	})
	t.Run("Descriptions", func(t *testing.T) {
		// Copied from the source table.
		for code, want := range map[string]string{
			"P0001": "Repatriation of Indian Portfolio investment abroad in equity capital (shares)",
			"P0014": `Receipts o/a Non-Resident deposits (FCNR(B)/NR(E)RA, etc.) {ADs should report these even if funds are not "swapped" into Rupees}`,
			"P0802": "Software consultancy/implementation (other than those covered in SOFTEX form)",
			"P0806": "Other information services - Subscription to newspapers, periodicals, etc.",
			"P0807": "Off-site Software Exports",
			"P1006": "Business and management consultancy and public relations services",
			"P1007": "Advertising, trade fair service",
			"P1099": "Other services not included elsewhere",
			"P1590": "Receipts below Rs. 5 lakhs (Currency-wise Totals)",
			"P1701": "Receipts on account of processing of goods",
			"P1001": "Merchanting Services – net receipts (from sale and purchase of goods without crossing the border)",
		} {
			is := is.New(t)
			got, ok := india.PurposeDescription(code)
			is.True(ok)         // code
			is.Equal(got, want) // code
		}
	})
	t.Run("Legacy", func(t *testing.T) {
		is := is.New(t)
		p, ok := india.LookupPurpose("P1001")
		is.True(ok)
		is.True(p.Legacy)
		is.Equal(p.Group, "Legacy codes")
		p, ok = india.LookupPurpose("P0802")
		is.True(ok)
		is.True(!p.Legacy)
		is.Equal(p.Group, "Telecommunication, computer and information services")
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		is := is.New(t)
		for _, code := range []string{"P0023", "P9999", "S0802", "p0802", ""} {
			d, ok := india.PurposeDescription(code)
			is.True(!ok)
			is.Equal(d, "")
		}
	})
	t.Run("CopyIsPrivate", func(t *testing.T) {
		is := is.New(t)
		india.PurposeCodes()[0].Description = "changed"
		d, _ := india.PurposeDescription("P0001")
		is.True(d != "changed")
	})
}

func TestValidPurposeCodeFormat(t *testing.T) {
	is := is.New(t)
	for code, want := range map[string]bool{
		"P0802":  true,
		"P9999":  true, // well-formed, though not in the table
		"p0802":  false,
		"S0802":  false,
		"P080":   false,
		"P08021": false,
		"P08A2":  false,
		"P+802":  false,
		"P 802":  false,
		"":       false,
	} {
		is.Equal(india.ValidPurposeCodeFormat(code), want) // code
	}
}
