package stellar

import (
	"testing"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/xdr"
)

func failedWith(pay xdr.PaymentResultCode) xdr.TransactionResult {
	ops := []xdr.OperationResult{{Code: xdr.OperationResultCodeOpInner, Tr: &xdr.OperationResultTr{
		Type: xdr.OperationTypePayment, PaymentResult: &xdr.PaymentResult{Code: pay}}}}
	return xdr.TransactionResult{Result: xdr.TransactionResultResult{Code: xdr.TransactionResultCodeTxFailed, Results: &ops}}
}

func TestResultCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  xdr.TransactionResult
		want string
	}{
		{"Underfunded", failedWith(xdr.PaymentResultCodePaymentUnderfunded), "op_underfunded"},
		{"NoTrust", failedWith(xdr.PaymentResultCodePaymentNoTrust), "op_no_trust"},
		{"NoDestination", failedWith(xdr.PaymentResultCodePaymentNoDestination), "op_no_destination"},
		{"SrcNoTrust", failedWith(xdr.PaymentResultCodePaymentSrcNoTrust), "op_src_no_trust"},
		{"BadSeq", xdr.TransactionResult{Result: xdr.TransactionResultResult{Code: xdr.TransactionResultCodeTxBadSeq}}, "tx_bad_seq"},
		{"NoAccount", xdr.TransactionResult{Result: xdr.TransactionResultResult{Code: xdr.TransactionResultCodeTxNoAccount}}, "tx_no_source_account"},
		{"InsufficientBalance", xdr.TransactionResult{Result: xdr.TransactionResultResult{Code: xdr.TransactionResultCodeTxInsufficientBalance}}, "tx_insufficient_balance"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(ResultCode(tc.res), tc.want)
		})
	}
	is := is.New(t)
	is.Equal(Explain("op_no_trust"), "op_no_trust (the destination account has no trustline for the asset)")
	is.Equal(Explain("op_weird"), "op_weird")
}
