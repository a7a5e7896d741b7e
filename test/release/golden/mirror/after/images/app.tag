{{DST}}/mirror/acme/app:v1@{{IDX}}
