"""Parses a metrics exposition read from stdin with Prometheus's own Python client (Debian's
python3-prometheus-client): argv[1] is `openmetrics` (the strict OpenMetrics parser) or
`prometheus` (the text format). Prints each family as `name type`, or fails naming the error."""
import sys

kind = sys.argv[1]
text = sys.stdin.read()
if kind == "openmetrics":
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
else:
    from prometheus_client.parser import text_string_to_metric_families
for family in text_string_to_metric_families(text):
    print(family.name, family.type)
