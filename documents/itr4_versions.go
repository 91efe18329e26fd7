package documents

import (
	"fmt"

	"github.com/payoutd/payoutd/india"
)

// itr4PayloadVersion is what Form_ITR4.SchemaVer and FormVer carry: the
// published files set "Ver1.0" in the payload whatever the file's own
// version (facts §6).
const itr4PayloadVersion = "Ver1.0"

// ITR4Schema names the published ITR-4 JSON schema an export follows.
type ITR4Schema struct {
	// AssessmentYear is the year the schema was published for: the returns
	// of financial year AssessmentYear−1.
	AssessmentYear string `json:"assessmentYear"`
	File           string `json:"file"`
	Version        string `json:"version"`
	// Notified is true when the schema is the one published for the
	// export's own year; Provisional when no form has been notified for the
	// year at all, so the export follows the latest schema until one is.
	Notified    bool   `json:"notified"`
	Provisional bool   `json:"provisional"`
	Note        string `json:"note"`
}

// itr4Schemas are the published schemas payoutd knows, oldest first, with
// the income-tax department's file names (facts §6).
var itr4Schemas = []ITR4Schema{
	{AssessmentYear: "2025-26", File: "ITR-4_2025_Main_V1.3_0.json", Version: "1.3"},
	{AssessmentYear: "2026-27", File: "ITR-4_2026_Main_V1.1.json", Version: "1.1"},
}

// ITR4SchemaFor is the schema the ITR-4 export of fy follows: its own year's
// when published; for a later year, whose form is not notified, the latest
// one, provisionally; for an earlier year, the earliest payoutd knows.
func ITR4SchemaFor(fy india.FY) ITR4Schema {
	ay := fy.AssessmentYear()
	first, last := itr4Schemas[0], itr4Schemas[len(itr4Schemas)-1]
	for _, s := range itr4Schemas {
		if s.AssessmentYear == ay {
			s.Notified = true
			s.Note = fmt.Sprintf("The file follows the ITR-4 schema published for AY %s (%s, version %s).", ay, s.File, s.Version)
			return s
		}
	}
	label := india.ActOf(fy).Label(fy)
	if ay > last.AssessmentYear {
		s := last
		s.Provisional = true
		s.Note = fmt.Sprintf("Provisional: no ITR-4 form or schema has been notified for the return of %s yet. The file follows the latest "+
			"published schema, ITR-4 for AY %s (%s, version %s); check it against the form for %s once it is notified.",
			label, s.AssessmentYear, s.File, s.Version, label)
		return s
	}
	s := first
	s.Note = fmt.Sprintf("payoutd does not hold the ITR-4 schema of AY %s: the file follows the ITR-4 schema for AY %s (%s, version %s); "+
		"check it with the department's utility for AY %s.", ay, s.AssessmentYear, s.File, s.Version, ay)
	return s
}
