window.WEIBO_CONFIG = {"apiUrl":"http://127.0.0.1:13000"};
