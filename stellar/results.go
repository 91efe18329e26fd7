package stellar

import (
	"strings"
	"unicode"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// ResultCode names why a transaction failed the way Stellar's tools do
// (tx_bad_seq, op_underfunded, …): the first failing operation's code when
// an operation failed, else the transaction's.
func ResultCode(r xdr.TransactionResult) string {
	code := r.Result.Code
	if code == xdr.TransactionResultCodeTxFailed && r.Result.Results != nil {
		for _, op := range *r.Result.Results {
			if c := opCode(op); c != "" {
				return c
			}
		}
	}
	if code == xdr.TransactionResultCodeTxNoAccount {
		return "tx_no_source_account"
	}
	return "tx_" + snake(strings.TrimPrefix(code.String(), "TransactionResultCodeTx"))
}

func opCode(op xdr.OperationResult) string {
	if op.Code != xdr.OperationResultCodeOpInner {
		if op.Code == xdr.OperationResultCodeOpNoAccount {
			return "op_no_source_account"
		}
		return "op_" + snake(strings.TrimPrefix(op.Code.String(), "OperationResultCodeOp"))
	}
	tr := op.Tr
	if tr == nil {
		return ""
	}
	switch {
	case tr.PaymentResult != nil && tr.PaymentResult.Code != xdr.PaymentResultCodePaymentSuccess:
		return "op_" + snake(strings.TrimPrefix(tr.PaymentResult.Code.String(), "PaymentResultCodePayment"))
	case tr.ChangeTrustResult != nil && tr.ChangeTrustResult.Code != xdr.ChangeTrustResultCodeChangeTrustSuccess:
		return "op_" + snake(strings.TrimPrefix(tr.ChangeTrustResult.Code.String(), "ChangeTrustResultCodeChangeTrust"))
	}
	return ""
}

// snake turns "BadSeq" into "bad_seq".
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// resultWords says what the codes a payout meets most often mean to the
// person who has to act on them.
var resultWords = map[string]string{
	"op_underfunded":          "the vault's account does not hold enough of the asset",
	"op_no_trust":             "the destination account has no trustline for the asset",
	"op_no_destination":       "the destination account does not exist on the network",
	"op_src_no_trust":         "the vault's account has no trustline for the asset",
	"op_not_authorized":       "the issuer has not authorised the destination to hold the asset",
	"op_src_not_authorized":   "the issuer has not authorised the vault to hold the asset",
	"op_line_full":            "the destination's trustline limit would be exceeded",
	"op_no_issuer":            "the asset's issuer does not exist on the network",
	"tx_bad_seq":              "the transaction's sequence number was not the vault account's next one",
	"tx_bad_auth":             "the transaction's signature does not match the vault account",
	"tx_insufficient_balance": "the vault's account has too little XLM for the fee and its reserve",
	"tx_no_source_account":    "the vault's account does not exist on the network yet",
	"tx_too_late":             "the transaction's time bound had passed",
	"tx_insufficient_fee":     "the fee offered was below the network's current minimum",
	"op_low_reserve":          "the vault's account holds too little XLM for the reserve of another entry (a trustline needs 0.5 XLM more)",
}

// Explain renders a result code with its meaning: "op_no_trust (the
// destination account has no trustline for the asset)".
func Explain(code string) string {
	if w, ok := resultWords[code]; ok {
		return code + " (" + w + ")"
	}
	return code
}
