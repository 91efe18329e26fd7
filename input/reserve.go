package input

import "github.com/payoutd/payoutd/money"

// ReservePolicy is the tax reserve (sequestration) policy: whether a share
// of each settlement is set aside, the share as a percentage with at most
// two decimals, and when (on_settlement, the one trigger there is).
type ReservePolicy struct {
	Enabled *bool
	Rate    string
	Trigger *string
}

// Validate checks the policy and returns the rate in hundredths of a
// percent.
func (q ReservePolicy) Validate() (rateBP int64, err error) {
	fields := map[string]string{}
	if q.Enabled == nil {
		fields["enabled"] = "is required"
	}
	rate, perr := money.ParsePercent(q.Rate)
	if q.Rate == "" {
		fields["rate"] = "is required"
	} else if perr != nil {
		fields["rate"] = "must be a number from 0 to 100 with at most 2 decimals"
	}
	if q.Trigger == nil {
		fields["trigger"] = "is required"
	} else if *q.Trigger != "on_settlement" {
		fields["trigger"] = "must be on_settlement"
	}
	if len(fields) > 0 {
		return 0, Invalid(fields)
	}
	return rate, nil
}
