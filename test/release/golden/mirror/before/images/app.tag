{{SRC}}/acme/ci/app:v1@{{IDX}}
