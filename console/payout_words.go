package console

import (
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// payoutWords say what a payout's state means for its money and its FIRA,
// in the user's words rather than the state's name.
type payoutWords struct {
	Amount string // the label of its amount: "Sent", "To send", …
	Note   string // what happened, beside the status
	FIRA   string // why there is no FIRA (yet)
}

func wordsOf(p store.Payment) payoutWords {
	fira := "A FIRA is generated once this payout completes."
	if !p.CrossBorder() {
		fira = "No FIRA: this payout is not cross-border (no client abroad)."
	}
	switch p.Status {
	case store.StatusCompleted, store.StatusConfirmed:
		return payoutWords{Amount: "Sent", FIRA: fira}
	case store.StatusInitiated:
		return payoutWords{Amount: "To send", Note: "Not confirmed: nothing has moved yet.", FIRA: fira}
	case store.StatusUnknown:
		return payoutWords{Amount: "Sending", Note: "Sent to the network, which has not said yet whether it arrived; payoutd keeps asking.", FIRA: fira}
	case store.StatusFailed:
		if payout.IsCancelled(p) {
			return payoutWords{Amount: "Not sent", Note: "Cancelled before it was confirmed: nothing was sent.",
				FIRA: "No FIRA: this payout was cancelled, so nothing was received."}
		}
		return payoutWords{Amount: "Not sent", Note: "Failed: " + p.FailedReason,
			FIRA: "No FIRA: this payout failed, so nothing was received."}
	}
	return payoutWords{Amount: "Sending", FIRA: fira}
}
