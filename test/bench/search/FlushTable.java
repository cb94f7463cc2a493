// test/bench/search/FlushTable.java — flushes one table's memstores to store files, so the search
// bench can read the table's size on disk. Run on the local stack's HBase jars by the bench
// (java -cp '<lib>/*' FlushTable.java <zk host> <zk port> <namespace:table>); prints "flushed".
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

public class FlushTable {
  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", args[0]);
    conf.set("hbase.zookeeper.property.clientPort", args[1]);
    try (Connection connection = ConnectionFactory.createConnection(conf);
        Admin admin = connection.getAdmin()) {
      admin.flush(TableName.valueOf(args[2]));
    }
    System.out.println("flushed");
  }
}
