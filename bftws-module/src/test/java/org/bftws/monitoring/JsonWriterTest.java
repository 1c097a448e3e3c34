package org.bftws.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

/** The status page's JSON writer writes what a real JSON parser (Gson) reads back unchanged. */
class JsonWriterTest {

    private static JsonObject parse(JsonWriter w) {
        return JsonParser.parseString(w.toString()).getAsJsonObject();
    }

    @Test
    void stringsWithQuotesBackslashesAndControlCharactersReadBackUnchanged() {
        String nasty = "a\"b\\c/d\n\r\t\b\f\u0000\u0001\u001f\u007f é € \uD83D\uDE00 \u2028\u2029 </script>";
        JsonWriter w = new JsonWriter().beginObject().member(nasty, nasty).endObject();
        assertEquals(nasty, parse(w).get(nasty).getAsString());
        assertFalse(w.toString().chars().anyMatch(c -> c < 0x20 || c == 0x2028 || c == 0x2029),
                "no raw control or line separator characters: " + w);
    }

    @Test
    void nestedObjectsNumbersBooleansAndNullsKeepTheirValuesAndOrder() {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("z", 3L);
        counts.put("a", Long.MAX_VALUE);
        JsonWriter w = new JsonWriter().beginObject().member("view", 7).beginObject("inner").member("ok", true)
                .beginObject("empty").endObject().member("counts", counts).endObject().member("ms", 1.25)
                .member("nan", Double.NaN).member("missing", (String) null).nullMember("replica").endObject();
        JsonObject o = parse(w);
        assertEquals(7, o.get("view").getAsInt());
        assertTrue(o.getAsJsonObject("inner").get("ok").getAsBoolean());
        assertEquals(0, o.getAsJsonObject("inner").getAsJsonObject("empty").size());
        assertEquals(Long.MAX_VALUE, o.getAsJsonObject("inner").getAsJsonObject("counts").get("a").getAsLong());
        assertEquals(java.util.List.of("z", "a"),
                java.util.List.copyOf(o.getAsJsonObject("inner").getAsJsonObject("counts").keySet()));
        assertEquals(1.25, o.get("ms").getAsDouble());
        assertTrue(o.get("nan").isJsonNull(), "NaN, which JSON cannot write, is null");
        assertTrue(o.get("missing").isJsonNull());
        assertTrue(o.get("replica").isJsonNull());
    }
}
