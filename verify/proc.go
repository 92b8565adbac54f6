package verify

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
)

// proc is a simulator process that reads commands on stdin and answers on
// stdout; stderr is kept for error messages.
type proc struct {
	name   string
	cmd    *exec.Cmd
	in     *bufio.Writer
	inPipe io.WriteCloser
	out    *bufio.Reader
	mu     sync.Mutex
	errBuf bytes.Buffer
	// waited is the process's exit, once: close waits for it, and fail
	// does when the process ended on its own (its stderr is then whole).
	waited  sync.Once
	waitErr error
}

// wait waits for the process to exit, once.
func (p *proc) wait() error {
	p.waited.Do(func() { p.waitErr = p.cmd.Wait() })
	return p.waitErr
}

func startProc(name, dir, path string, args ...string) (*proc, error) {
	p := &proc{name: name, cmd: exec.Command(path, args...)}
	p.cmd.Dir = dir
	p.cmd.Stderr = &lockedWriter{mu: &p.mu, w: &p.errBuf}
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: start %s: %v", name, path, err)
	}
	p.inPipe = stdin
	p.in = bufio.NewWriterSize(stdin, 1<<16)
	p.out = bufio.NewReaderSize(stdout, 1<<16)
	return p, nil
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// fail wraps err with what the process wrote on stderr: all of it when
// the process ended (its stdout at EOF, or its stdin closed), as when a
// harness stops at a failing property, which fail returns as a
// *PropertyError.
func (p *proc) fail(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) {
		p.wait()
	}
	p.mu.Lock()
	msg := p.errBuf.String()
	p.mu.Unlock()
	if pe := parsePropertyError(p.name, msg); pe != nil {
		return pe
	}
	if msg != "" {
		return fmt.Errorf("%s: %v\n%s", p.name, err, msg)
	}
	return fmt.Errorf("%s: %v", p.name, err)
}

// close ends the process after sending the quit command bytes.
func (p *proc) close(quit []byte) error {
	if p == nil || p.cmd == nil {
		return nil
	}
	p.in.Write(quit)
	p.in.Flush()
	p.inPipe.Close()
	go io.Copy(io.Discard, p.out) // answers nobody will read must not block the exit
	err := p.wait()
	p.cmd = nil
	if err != nil {
		return p.fail(err)
	}
	return nil
}
