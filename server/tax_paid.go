package server

import "encoding/json"

// taxPaidView is the liability's taxes paid: the year's recorded challans
// that are not reversed, by kind.
type taxPaidView struct {
	Advance        json.Number `json:"advance"`
	SelfAssessment json.Number `json:"selfAssessment"`
	Total          json.Number `json:"total"`
	Challans       int         `json:"challans"`
}
