"""Debian's python3-twilio, unchanged but for its API's base URL, against --dialect twilio.

Run as: twilio_python.py BASE_URL ACCOUNT_SID AUTH_TOKEN RECEIVER_URL
Prints one JSON object of what the library saw, for the jest test to compare.
Then reads callbacks (url, params, signature) as JSON lines on stdin and prints whether the
library's RequestValidator accepts each.
"""
import datetime
import json
import sys

from twilio.base.exceptions import TwilioRestException
from twilio.request_validator import RequestValidator
from twilio.rest import Client

base, sid, token, receiver = sys.argv[1:5]
client = Client(sid, token)
client.api.base_url = base

out = {}
out["list"] = [c.sid for c in client.calls.list(page_size=1000)]
out["stream"] = [c.sid for c in client.calls.stream(page_size=50)]
pages, page = [], client.calls.page(page_size=300)
while page is not None:
    pages.append([c.sid for c in page])
    page = page.next_page()
out["pages"] = pages
out["recordings"] = [r.sid for r in client.recordings.stream(page_size=100)]
first = client.calls.list(limit=1)[0]
out["busy"] = [c.sid for c in client.calls.list(status="busy", page_size=1000)]
out["to"] = [c.sid for c in client.calls.list(to=first.to, page_size=1000)]
after = first.start_time - datetime.timedelta(days=3)
out["after"] = {"at": after.isoformat(), "sids": [c.sid for c in client.calls.list(start_time_after=after, page_size=1000)]}
out["day"] = {"at": after.date().isoformat(), "sids": [c.sid for c in client.calls.list(start_time=after.date(), page_size=1000)]}
rec = client.recordings.list(limit=1)[0]
out["by_call"] = [r.sid for r in client.recordings.list(call_sid=rec.call_sid)]
fetched = client.calls(first.sid).fetch()
out["fetched"] = {"sid": fetched.sid, "status": fetched.status, "duration": fetched.duration, "date_created": fetched.date_created.isoformat()}
try:
    client.calls("CA" + "0" * 32).fetch()
except TwilioRestException as e:
    out["missing"] = {"status": e.status, "code": e.code}
created = client.calls.create(
    to="+15550000001", from_="+15126002188", url="http://127.0.0.1:1/twiml",
    status_callback=receiver + "/status", status_callback_event=["initiated", "completed"],
)
out["created"] = {"sid": created.sid, "status": created.status}
updated = client.calls(created.sid).update(status="canceled")
out["updated"] = updated.status
out["removed"] = client.recordings(rec.sid).delete()
print(json.dumps(out), flush=True)

validator = RequestValidator(token)
for line in sys.stdin:
    got = json.loads(line)
    print(json.dumps(validator.validate(got["url"], got["params"], got["signature"])), flush=True)
