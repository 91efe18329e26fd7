package india

import (
	"cmp"
	_ "embed"
	"fmt"
	"slices"
)

// purposeCodesTSV is the complete inward ("P") purpose-code table of the
// RBI's list (source and caveats in the file's header).
//
//go:embed data/purpose_codes.tsv
var purposeCodesTSV string

// Purpose is one RBI inward-remittance purpose code.
type Purpose struct {
	Code        string // "P0802"
	Group       string // heading of the source list, e.g. "Other business services"
	Description string
	// Legacy marks an "old purpose code" that the source keeps only until
	// merchants migrate: still recognised so old records read back, but new
	// payments should not use it.
	Legacy bool
}

var purposeList, purposeByCode = loadPurposes()

func loadPurposes() ([]Purpose, map[string]Purpose) {
	rows := parseTSV("purpose_codes.tsv", purposeCodesTSV, 4)
	list := make([]Purpose, 0, len(rows))
	byCode := make(map[string]Purpose, len(rows))
	for _, r := range rows {
		if !ValidPurposeCodeFormat(r[0]) || (r[1] != "0" && r[1] != "1") {
			panic(fmt.Sprintf("india: purpose_codes.tsv: bad row %q", r))
		}
		if _, dup := byCode[r[0]]; dup {
			panic("india: purpose_codes.tsv: duplicate " + r[0])
		}
		p := Purpose{Code: r[0], Legacy: r[1] == "1", Group: r[2], Description: r[3]}
		list = append(list, p)
		byCode[p.Code] = p
	}
	slices.SortFunc(list, func(a, b Purpose) int { return cmp.Compare(a.Code, b.Code) })
	return list, byCode
}

// PurposeDescription returns the description of an inward purpose code, and
// false for a code not in the table. Legacy codes are found too (see
// LookupPurpose to tell them apart).
func PurposeDescription(code string) (string, bool) {
	p, ok := purposeByCode[code]
	return p.Description, ok
}

// LookupPurpose returns the whole table entry for an inward purpose code.
func LookupPurpose(code string) (Purpose, bool) {
	p, ok := purposeByCode[code]
	return p, ok
}

// PurposeCodes returns every inward purpose code, legacy ones included,
// sorted by code. The slice is a copy the caller may keep or change.
func PurposeCodes() []Purpose {
	return slices.Clone(purposeList)
}

// ValidPurposeCodeFormat reports whether code has the shape of an inward
// purpose code, ^P\d{4}$, whether or not the code is in the table.
func ValidPurposeCodeFormat(code string) bool {
	if len(code) != 5 || code[0] != 'P' {
		return false
	}
	_, ok := parseDigits(code[1:])
	return ok
}
