/**
 * A real lockstep producer for repin tests: one Makefile recipe builds
 * ghcr.io/acme/app and stamps the same ref into two keys of values.yaml and into
 * images/app.tag (repo.test.ts, kill.test.ts).
 */
export const LOCKSTEP_MAKEFILES: Record<string, string> = {
  'Makefile': 'build:\n\tmake -C packages/app image\n',
  'packages/app/Makefile': [
    'REGISTRY ?= ghcr.io/acme',
    'TAG ?= v1.0.0',
    'image:',
    '\tdocker buildx build . --tag $(REGISTRY)/app:$(TAG) --metadata-file app.json',
    '\tIMAGE="$(REGISTRY)/app:$(TAG)@$$(yq e \'."containerimage.digest"\' app.json -r)" \\',
    "\t\tyq -i '.app.image = strenv(IMAGE) | .backup.clientImage = strenv(IMAGE)' values.yaml",
    '\tyq .app.image values.yaml > images/app.tag',
    '',
  ].join('\n'),
};
