package resilience

import (
	"testing"

	"github.com/payoutd/payoutd/internal/binarytest"
)

// binary is the payoutd these tests run.
var binary string

func TestMain(m *testing.M) { binarytest.Main(m, &binary) }

// The binary's helpers under the names these tests use.
type proc = binarytest.Proc

var (
	start         = binarytest.Start
	startDB       = binarytest.StartDB
	cli           = binarytest.Run
	runBinary     = binarytest.Exec
	runBinaryEnv  = binarytest.ExecEnv
	logText       = binarytest.LogText
	liveCall      = binarytest.Call
	post          = binarytest.Post
	wallet        = binarytest.Wallet
	submitLiveKYC = binarytest.SubmitLiveKYC
	testUSDC      = binarytest.USDC
)

const crashAddress = binarytest.Address
