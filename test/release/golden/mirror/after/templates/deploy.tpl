{{- if .Values.enabled }}
      containers:
        - image: "{{DST}}/mirror/acme/app:v1@{{IDX}}"
{{- end }}
