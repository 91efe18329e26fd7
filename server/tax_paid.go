package server

import "encoding/json"

// taxPaidView is the liability's taxes paid: the year's recorded challans
// that are not reversed, by kind.
type taxPaidView struct {
	Advance             json.Number `json:"advance"`
	AdvancePaise        int64       `json:"advancePaise"`
	SelfAssessment      json.Number `json:"selfAssessment"`
	SelfAssessmentPaise int64       `json:"selfAssessmentPaise"`
	Total               json.Number `json:"total"`
	TotalPaise          int64       `json:"totalPaise"`
	Challans            int         `json:"challans"`
}
