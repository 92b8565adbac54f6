// Package vmshr is the elastic vector MSHR family (Gou's thesis, chapter
// 6): the PMSHR tag search of Fig. 6.5 with the hyper-block cover match of
// Table 6.1 (vmshr-match), the MSHR file with deferred reservation of
// Fig. 6.5(b) (vmshr-elastic) and the baseline of Fig. 6.5(a)
// (vmshr-base). spec.go holds the chapter's math and Alg. 6.1, file.go the
// MSHR file's contract in plain Go (File), model.go the cycle model of
// Table 6.2's GPU behind the evaluation of section 6.5.
package vmshr
