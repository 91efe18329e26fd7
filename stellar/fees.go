package stellar

import (
	"context"
	"fmt"

	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/store"
)

// Fee defaults: the bid is this percentile of the fees recent ledgers
// included, never more than DefaultMaxFee stroops per operation (0.01 XLM,
// a fraction of a cent).
const (
	DefaultFeePercentile = 90
	DefaultMaxFee        = 100_000
)

// FeePercentiles are the percentiles getFeeStats reports.
var FeePercentiles = []int{10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99}

func percentile(d protocol.FeeDistribution, p int) uint64 {
	switch p {
	case 10:
		return d.P10
	case 20:
		return d.P20
	case 30:
		return d.P30
	case 40:
		return d.P40
	case 50:
		return d.P50
	case 60:
		return d.P60
	case 70:
		return d.P70
	case 80:
		return d.P80
	case 95:
		return d.P95
	case 99:
		return d.P99
	}
	return d.P90
}

func (r *Rail) maxFee() int64 {
	if r.MaxFee > 0 {
		return r.MaxFee
	}
	return DefaultMaxFee
}

// feeBid is the fee per operation to offer for a new envelope: the
// configured percentile of what the network has recently included, at
// least the protocol's minimum; after a previous envelope of the payout
// never applied because the network refused its fee, at least twice that
// bid. Never above the cap (-stellar-max-fee).
func (r *Rail) feeBid(ctx context.Context, prev []store.Submission) (int64, error) {
	fs, err := call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetFeeStatsResponse, error) {
		return c.GetFeeStats(ctx)
	})
	if err != nil {
		return 0, transient("getFeeStats", err)
	}
	p := r.FeePercentile
	if p == 0 {
		p = DefaultFeePercentile
	}
	bid := max(int64(percentile(fs.InclusionFee, p)), txnbuild.MinBaseFee)
	if n := len(prev); n > 0 && feeRefused(prev[n-1]) {
		last, err := bidOf(prev[n-1])
		if err != nil {
			return 0, err
		}
		bid = max(bid, 2*last)
	}
	return min(bid, r.maxFee()), nil
}

// feeRefused reports an envelope that never applied, last refused for its
// fee: signing again with a higher bid may get it in.
func feeRefused(s store.Submission) bool {
	return s.State == store.SubmissionExpired && s.LastRefusal == "tx_insufficient_fee"
}

// raisable reports an envelope refused for its fee whose bid is below the
// cap: a new one can offer more.
func (r *Rail) raisable(s store.Submission) bool {
	bid, err := bidOf(s)
	return err == nil && bid < r.maxFee()
}

// bidOf is the fee per operation an envelope offered.
func bidOf(s store.Submission) (int64, error) {
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(s.Envelope, &env); err != nil {
		return 0, fmt.Errorf("submission %s: %w", s.Hash, err)
	}
	return int64(env.Fee()) / int64(max(len(env.Operations()), 1)), nil
}
