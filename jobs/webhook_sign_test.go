package jobs

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestSignWebhookVector reproduces the published Standard Webhooks test
// vector: a round trip through our own verifier would pass with the wrong
// delimiter, alphabet or key decoding too; matching the reference output
// is what says receivers' libraries accept our signatures.
func TestSignWebhookVector(t *testing.T) {
	is := is.New(t)
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_"))
	is.NoErr(err)
	got := SignWebhook([][]byte{key}, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	is.Equal(got, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
}

// TestSignWebhookRotation: one signature per key, current first, separated
// by a space as Standard Webhooks specifies.
func TestSignWebhookRotation(t *testing.T) {
	is := is.New(t)
	k1, k2 := []byte("0123456789abcdef0123456789abcdef"), []byte("fedcba9876543210fedcba9876543210")
	both := SignWebhook([][]byte{k1, k2}, "evt_1", 1700000000, []byte("{}"))
	parts := strings.Split(both, " ")
	is.Equal(len(parts), 2)
	is.Equal(parts[0], SignWebhook([][]byte{k1}, "evt_1", 1700000000, []byte("{}")))
	is.Equal(parts[1], SignWebhook([][]byte{k2}, "evt_1", 1700000000, []byte("{}")))
}
