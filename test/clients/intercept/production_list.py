"""A python3-twilio script as written for production: no base_url, credentials from the environment."""
import json
import os

from twilio.rest import Client

client = Client(os.environ['TWILIO_ACCOUNT_SID'], os.environ['TWILIO_AUTH_TOKEN'])
sids = [call.sid for call in client.calls.stream(page_size=50)]
print(json.dumps({'sids': sids}))
