package elastic

import (
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// testStorage is historyStorage, elaborated once for the tests that read
// it (fifteen history caches, up to 1,024 sets of 4 ways).
var testStorage = sync.OnceValues(func() ([]storageRow, error) { return historyStorage(io.Discard) })

// TestStorageMatchesTable53: the history cache's tag and value bits,
// counted in the elaborated RTL, equal Table 5.3's formula at every size
// the report shows, and the default cache is 704 bytes.
func TestStorageMatchesTable53(t *testing.T) {
	rows, err := testStorage()
	require.NoError(t, err)
	tab := storageTable(rows)
	require.Len(t, tab.Rows, len(costSets)*len(costWays))
	found704 := false
	for _, row := range tab.Rows {
		require.Equal(t, "exact", row[6], "sets %s ways %s: RTL %s bits, Table 5.3 %s", row[0], row[1], row[4], row[3])
		if row[0] == "256" && row[1] == "2" {
			require.Equal(t, []string{"5632", "704"}, row[4:6])
			found704 = true
		}
	}
	require.True(t, found704)
	require.Equal(t, storageAt(256, 2), 7)
	require.Equal(t, storageRow{Sets: 256, Ways: 2, Lines: 5632, Valid: 512, LRU: 256}, rows[storageAt(256, 2)])
}
