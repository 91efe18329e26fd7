package stellartest

// BaseReserve is the network's base reserve in stroops (0.5 XLM, as on
// pubnet and testnet).
const BaseReserve = 5_000_000

// minBalance is the XLM the account must keep, with extra more subentries:
// two base reserves, and one per trustline.
func (a *account) minBalance(extra int) int64 {
	return int64(2+len(a.lines)+extra) * BaseReserve
}
