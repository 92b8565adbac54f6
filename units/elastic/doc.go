// Package elastic is the elastic pipeline family (Gou's thesis, chapter 5;
// gou-elastic-pipeline-ijpp2013): the shared-memory bank-conflict degree
// (elastic-bkconf), the bank-conflict history cache (elastic-bchc), the
// bank-conflict aware warp ready mask of Fig. 5.7 (elastic-warpmask), the
// elastic back end of Fig. 5.6 (elastic-pipe) and the baseline of
// Fig. 5.4(a) (elastic-basepipe); spec.go holds the chapter's equations,
// backend.go and histcache.go plain-Go models of the blocks' contracts,
// model.go the cycle model of one core that reproduces section 5.6.
package elastic
