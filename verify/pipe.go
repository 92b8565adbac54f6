package verify

import (
	"encoding/binary"
	"io"
)

// pipeSim is the client side of the binary protocol that the Verilator
// harness and the compiled Go simulator both speak (see verilator.go).
type pipeSim struct {
	name  string
	ports Ports
	proc  *proc
}

// Name implements Simulator.
func (p *pipeSim) Name() string { return p.name }

// Ports implements Simulator.
func (p *pipeSim) Ports() Ports { return p.ports }

func (p *pipeSim) command(cmd, arg uint32) {
	var hdr [8]byte
	binary.LittleEndian.PutUint32(hdr[0:], cmd)
	binary.LittleEndian.PutUint32(hdr[4:], arg)
	p.proc.in.Write(hdr[:])
}

// Run implements Simulator. Inputs are written while outputs are read, so
// a harness that answers cycle by cycle never stalls on a full pipe.
func (p *pipeSim) Run(in []Vector) ([]Vector, error) {
	written := make(chan error, 1)
	go func() { written <- p.send(in) }()
	out, err := p.receive(len(in))
	if werr := <-written; err == nil && werr != nil {
		err = werr
	}
	return out, err
}

// send writes a batch of input vectors. With receive running on another
// goroutine, Lockstep keeps the next batch queued while the process works
// on the current one.
func (p *pipeSim) send(in []Vector) error {
	buf := make([]byte, 8, 8+8*len(in)*p.ports.InWords())
	binary.LittleEndian.PutUint32(buf[0:], cmdRun)
	binary.LittleEndian.PutUint32(buf[4:], uint32(len(in)))
	for _, vec := range in {
		for _, x := range vec {
			buf = binary.LittleEndian.AppendUint64(buf, x)
		}
	}
	if _, err := p.proc.in.Write(buf); err != nil {
		return p.proc.fail(err)
	}
	if err := p.proc.in.Flush(); err != nil {
		return p.proc.fail(err)
	}
	return nil
}

// receive reads the output vectors of the oldest batch sent, n cycles.
func (p *pipeSim) receive(n int) ([]Vector, error) {
	ow := p.ports.OutWords()
	buf := make([]byte, n*ow*8)
	if _, err := io.ReadFull(p.proc.out, buf); err != nil {
		return nil, p.proc.fail(err)
	}
	flat := make(Vector, n*ow)
	for i := range flat {
		flat[i] = binary.LittleEndian.Uint64(buf[8*i:])
	}
	out := make([]Vector, n)
	for c := range out {
		out[c] = flat[c*ow : (c+1)*ow]
	}
	return out, nil
}

// Bench runs cycles with the LFSR stimulus inside the simulator process and
// returns the output checksum and the nanoseconds the cycles took.
func (p *pipeSim) Bench(cycles, seed uint64) (checksum, nanos uint64, err error) {
	p.command(cmdBench, 0)
	var w [16]byte
	binary.LittleEndian.PutUint64(w[0:], cycles)
	binary.LittleEndian.PutUint64(w[8:], lfsrSeed(seed))
	p.proc.in.Write(w[:])
	if err := p.proc.in.Flush(); err != nil {
		return 0, 0, p.proc.fail(err)
	}
	if _, err := io.ReadFull(p.proc.out, w[:]); err != nil {
		return 0, 0, p.proc.fail(err)
	}
	return binary.LittleEndian.Uint64(w[0:]), binary.LittleEndian.Uint64(w[8:]), nil
}

func (p *pipeSim) seedStimulus(seed uint64) error {
	p.command(cmdSeed, 0)
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], lfsrSeed(seed))
	p.proc.in.Write(w[:])
	if err := p.proc.in.Flush(); err != nil {
		return p.proc.fail(err)
	}
	return nil
}

func (p *pipeSim) requestDigest(n int) error {
	p.command(cmdDigest, uint32(n))
	if err := p.proc.in.Flush(); err != nil {
		return p.proc.fail(err)
	}
	return nil
}

// readDigest reads the answer: one little-endian word.
func (p *pipeSim) readDigest() (uint64, error) {
	var w [8]byte
	if _, err := io.ReadFull(p.proc.out, w[:]); err != nil {
		return 0, p.proc.fail(err)
	}
	return binary.LittleEndian.Uint64(w[:]), nil
}

// coverHits asks for the cover counts: the answer is their number, then
// each count.
func (p *pipeSim) coverHits() ([]uint64, error) {
	p.command(cmdCovers, 0)
	if err := p.proc.in.Flush(); err != nil {
		return nil, p.proc.fail(err)
	}
	var w [8]byte
	if _, err := io.ReadFull(p.proc.out, w[:]); err != nil {
		return nil, p.proc.fail(err)
	}
	hits := make([]uint64, binary.LittleEndian.Uint64(w[:]))
	for i := range hits {
		if _, err := io.ReadFull(p.proc.out, w[:]); err != nil {
			return nil, p.proc.fail(err)
		}
		hits[i] = binary.LittleEndian.Uint64(w[:])
	}
	return hits, nil
}

// Close implements Simulator.
func (p *pipeSim) Close() error {
	var quit [8]byte
	return p.proc.close(quit[:])
}
