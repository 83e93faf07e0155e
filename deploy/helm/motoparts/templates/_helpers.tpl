{{- define "motoparts.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "motoparts.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "api") */}}
{{- define "motoparts.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "motoparts.image" -}}
{{- printf "%s/%s:%s" .root.Values.imageRegistry .image.repository (required (printf "%s image.tag is required" .component) .image.tag | toString) -}}
{{- end -}}

{{- define "motoparts.url" -}}
{{- printf "%s://%s" .root.Values.scheme .host -}}
{{- end -}}

{{/* Where the shell loads a remote: its release on the CDN, or its own host. */}}
{{- define "motoparts.remoteUrl" -}}
{{- $fe := index .root.Values.frontends .name -}}
{{- if .root.Values.remotes.baseUrl -}}
{{- printf "%s/%s/%s/" (trimSuffix "/" .root.Values.remotes.baseUrl) .name (default $fe.image.tag $fe.version | toString) -}}
{{- else -}}
{{- printf "%s://%s/" .root.Values.scheme (index .root.Values.hosts .name) -}}
{{- end -}}
{{- end -}}

{{/*
A remote's canary for config.json, as JSON: {"url": …, "percent": …}, or {} when it has none
(percent 0). Its URL is `canary.url`, else `canary.version` on the CDN (remotes.baseUrl).
*/}}
{{- define "motoparts.canary" -}}
{{- $canary := (index .root.Values.frontends .name).canary | default dict -}}
{{- $percent := float64 ($canary.percent | default 0) -}}
{{- if or (lt $percent 0.0) (gt $percent 100.0) -}}
{{- fail (printf "frontends.%s.canary.percent must be from 0 to 100" .name) -}}
{{- end -}}
{{- if gt $percent 0.0 -}}
{{- $url := $canary.url | default "" -}}
{{- if not $url -}}
{{- if not $canary.version -}}
{{- fail (printf "frontends.%s.canary needs a version (on remotes.baseUrl) or a url" .name) -}}
{{- end -}}
{{- if not .root.Values.remotes.baseUrl -}}
{{- fail (printf "frontends.%s.canary.version needs remotes.baseUrl (or give canary.url)" .name) -}}
{{- end -}}
{{- $url = printf "%s/%s/%s/" (trimSuffix "/" .root.Values.remotes.baseUrl) .name ($canary.version | toString) -}}
{{- end -}}
{{- dict "url" $url "percent" $percent | toJson -}}
{{- else -}}
{}
{{- end -}}
{{- end -}}

{{- define "motoparts.podSecurity" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "motoparts.containerSecurity" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
{{- end -}}

{{/* The browser origins that call the API: the shell's and each remote's standalone page. */}}
{{- define "motoparts.corsOrigins" -}}
{{- $root := . -}}
{{- $origins := list -}}
{{- range $name := list "shell" "storefront" "auth" "dashboard" -}}
{{- $origins = append $origins (include "motoparts.url" (dict "root" $root "host" (index $root.Values.hosts $name))) -}}
{{- end -}}
{{- join "," $origins -}}
{{- end -}}

{{/* A NetworkPolicy egress rule to the cluster's DNS (networkPolicy.dns.to), UDP and TCP 53. */}}
{{- define "motoparts.dnsEgress" -}}
# DNS
- to:
    {{- toYaml (required "networkPolicy.dns.to is required" .dns.to) | nindent 4 }}
  ports:
    - port: 53
      protocol: UDP
    - port: 53
      protocol: TCP
{{- end -}}

{{/* The Secret holding the shop's service token (api.serviceToken; default: api.secretName). */}}
{{- define "motoparts.serviceTokenSecret" -}}
{{- default (required "api.secretName is required" .Values.api.secretName) .Values.api.serviceToken.secretName -}}
{{- end -}}
