package cli

import (
	"os"
	"testing"

	"github.com/payoutd/payoutd/internal/binarytest"
)

// binary is the payoutd these tests run.
var binary string

func TestMain(m *testing.M) {
	// The tests read the repository's files (README.md, Dockerfile,
	// compose.yaml, schema.sql, examples/) from its root.
	if err := os.Chdir(".."); err != nil {
		panic(err)
	}
	schema, err := os.ReadFile("schema.sql")
	if err != nil {
		panic(err)
	}
	schemaSQL = string(schema)
	binarytest.Main(m, &binary)
}

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
	get           = binarytest.Get
	post          = binarytest.Post
	wallet        = binarytest.Wallet
	openBeside    = binarytest.OpenBeside
	submitLiveKYC = binarytest.SubmitLiveKYC
	testUSDC      = binarytest.USDC
)

const crashAddress = binarytest.Address
