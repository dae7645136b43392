import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.HttpsURLConnection;

/**
 * A Java client as written for production: https://api.twilio.com, and nothing else. Run with
 * JAVA_TOOL_OPTIONS naming the proxy and the trust store, it walks every page of the calls.
 */
public class ListCalls {
    public static void main(String[] args) throws Exception {
        String sid = System.getenv("TWILIO_ACCOUNT_SID");
        String token = System.getenv("TWILIO_AUTH_TOKEN");
        String auth = "Basic " + Base64.getEncoder().encodeToString((sid + ":" + token).getBytes(StandardCharsets.UTF_8));
        Pattern callSid = Pattern.compile("\"sid\":\"(CA[0-9a-f]{32})\"");
        Pattern next = Pattern.compile("\"next_page_uri\":(null|\"([^\"]*)\")");
        List<String> sids = new ArrayList<>();
        int pages = 0;
        String path = "/2010-04-01/Accounts/" + sid + "/Calls.json?PageSize=50";
        while (path != null) {
            HttpsURLConnection c = (HttpsURLConnection) new URL("https://api.twilio.com" + path).openConnection();
            c.setRequestProperty("Authorization", auth);
            if (c.getResponseCode() != 200) throw new IOException("status " + c.getResponseCode());
            String body = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            pages++;
            Matcher m = callSid.matcher(body);
            while (m.find()) sids.add("\"" + m.group(1) + "\"");
            Matcher n = next.matcher(body);
            path = n.find() && n.group(2) != null ? n.group(2) : null;
        }
        System.out.println("{\"pages\":" + pages + ",\"sids\":[" + String.join(",", sids) + "]}");
    }
}
