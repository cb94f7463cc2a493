// infra/local/PreSplit.java — pre-splits tables the REST gateway just created (it cannot pass
// split keys: its schema resource only creates single-region tables). A Java 17 single-file
// program on the HBase client jars of the local stack, talking to the cluster over ZooKeeper
// with the Admin API:
//
//   java -cp "<stack dir>/hbase/lib/*" infra/local/PreSplit.java <zk host:port> <ns:table>=<hex>,<hex>,… …
//
// For each table: one region and no rows → its descriptor is kept, the table is dropped and
// created again with the split keys (Admin.createTable(descriptor, splitKeys): the master
// creates and assigns every region at once, round-robin over the RegionServers). More than one
// region → left alone. Rows in it → left alone (splitting a live table is an operator's call:
// `split 'ns:table', "\x10\x00"` in hbase shell). One line per table on stdout; exit 1 if any
// table could not be handled. Invoked by infra/schema/local-pre-split.ts.
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;

public class PreSplit {
  public static void main(String[] args) throws Exception {
    if (args.length < 1 || !args[0].contains(":")) {
      System.err.println("usage: PreSplit <zk host:port> <ns:table>=<hex>,<hex>,... ...");
      System.exit(2);
    }
    String zkHost = args[0].substring(0, args[0].lastIndexOf(':'));
    String zkPort = args[0].substring(args[0].lastIndexOf(':') + 1);
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", zkHost);
    conf.set("hbase.zookeeper.property.clientPort", zkPort);
    conf.setInt("hbase.client.retries.number", 5);
    int failed = 0;
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      for (int i = 1; i < args.length; i++) {
        int eq = args[i].indexOf('=');
        TableName table = TableName.valueOf(args[i].substring(0, eq));
        List<byte[]> points = new ArrayList<>();
        for (String hex : args[i].substring(eq + 1).split(",")) if (!hex.isEmpty()) points.add(HexFormat.of().parseHex(hex));
        try {
          int regions = admin.getRegions(table).size();
          if (regions > 1) {
            System.out.println(table + ": already " + regions + " regions, left alone");
            continue;
          }
          boolean empty;
          try (Table t = conn.getTable(table); ResultScanner s = t.getScanner(new Scan().setLimit(1).setCaching(1))) {
            empty = s.next() == null;
          }
          if (!empty) {
            System.out.println(table + ": has rows, left alone (split it by hand)");
            failed++;
            continue;
          }
          TableDescriptor descriptor = admin.getDescriptor(table);
          admin.disableTable(table);
          admin.deleteTable(table);
          admin.createTable(descriptor, points.toArray(new byte[0][]));
          System.out.println(table + ": created with " + admin.getRegions(table).size() + " regions");
        } catch (Exception e) {
          System.out.println(table + ": failed — " + e);
          failed++;
        }
      }
    }
    System.exit(failed == 0 ? 0 : 1);
  }
}
