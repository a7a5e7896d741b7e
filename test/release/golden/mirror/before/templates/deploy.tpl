{{- if .Values.enabled }}
      containers:
        - image: "{{SRC}}/acme/ci/app:v1@{{IDX}}"
{{- end }}
