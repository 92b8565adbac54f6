module github.com/parmem/parmem

go 1.26

require (
	github.com/hashicorp/go-multierror v1.1.1
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/hashicorp/errwrap v1.0.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
