package sqlitex

import (
	"runtime"
	"time"
)

// How a batch is gathered: a commit costs about the same for one caller as
// for a dozen (the pages of every index it touches, the search index's
// flush, the COMMIT itself), so under load the committer lets a batch
// fill a little before it runs it.

// lingerYields is how often the committer yields to let more callers join a
// batch under load, so more transactions share one commit.
const lingerYields = 2

// lingerFor is how long, at most, the committer waits under load for a
// batch to reach half the size of the one before. Callers answered together
// come back together: a batch begun as the first of them returns carries
// one or two and costs a whole commit (its pages written, the search index
// flushed), and the rest then wait behind it.
const lingerFor = 300 * time.Microsecond

// gather collects the batch that first begins: every caller already
// waiting, then under load those who join within a few yields, and then,
// while the batch is under half the size of the previous one, those who
// join within c.lingerFor (lingerFor, unless a test sets another).
func (c *committer) gather(first *txRequest) []*txRequest {
	batch := []*txRequest{first}
	for yields := 0; len(batch) < maxBatch; {
		select {
		case r := <-c.reqs:
			batch = append(batch, r)
			continue
		default:
		}
		if yields == lingerYields || len(batch) == 1 && c.lastBatch <= 1 {
			break
		}
		yields++
		runtime.Gosched()
	}
	half := c.lastBatch / 2 // lastBatch is at most maxBatch
	if len(batch) >= half {
		return batch
	}
	if c.linger == nil {
		c.linger = time.NewTimer(c.lingerFor)
	} else {
		c.linger.Reset(c.lingerFor)
	}
	defer c.linger.Stop()
	for len(batch) < half {
		select {
		case r := <-c.reqs:
			batch = append(batch, r)
		case <-c.linger.C:
			return batch
		case <-c.quit:
			return batch
		}
	}
	return batch
}
