// test/bench/feed/RegionReadCounters.java — the benchmark's probe for rows a scan EXAMINED.
// The REST gateway's /status/cluster gives each region's readRequestsCount only (rows returned,
// i.e. that passed a filter); the rows a filter rejected are counted per region in
// filteredReadRequestsCount, which the master holds (each region server's load report) but the
// REST model drops. This HBase Java client asks the master for them (Admin.getClusterMetrics),
// the same source and freshness (hbase.regionserver.msginterval, 3 s) as /status/cluster.
//
// Run as a single-file source program on the stack's own jars (no build step):
//   java -cp "<hbase lib>/*" test/bench/feed/RegionReadCounters.java <zk quorum host> <zk port>
// Protocol: prints "ready" once connected; then for every line read on stdin it prints ONE line
// of JSON: {"<ns:table>":[readRequests, filteredReadRequests, regions], …}, the counters summed
// over the table's regions. Exits when stdin closes.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;

public class RegionReadCounters {
  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", args[0]);
    conf.set("hbase.zookeeper.property.clientPort", args[1]);
    conf.setInt("hbase.client.retries.number", 3);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
      System.out.println("ready");
      System.out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      while (in.readLine() != null) {
        Map<String, long[]> byTable = new TreeMap<>();
        ClusterMetrics cm = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
        for (ServerMetrics sm : cm.getLiveServerMetrics().values()) {
          for (RegionMetrics rm : sm.getRegionMetrics().values()) {
            TableName t = RegionInfo.getTable(rm.getRegionName());
            long[] c = byTable.computeIfAbsent(t.getNameAsString(), k -> new long[3]);
            c[0] += rm.getReadRequestCount();
            c[1] += rm.getFilteredReadRequestCount();
            c[2] += 1;
          }
        }
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, long[]> e : byTable.entrySet()) {
          if (out.length() > 1) out.append(',');
          out.append('"').append(e.getKey().replace("\\", "\\\\").replace("\"", "\\\"")).append("\":[")
              .append(e.getValue()[0]).append(',').append(e.getValue()[1]).append(',').append(e.getValue()[2]).append(']');
        }
        System.out.println(out.append('}'));
        System.out.flush();
      }
    }
  }
}
