import Foundation

/// Web pages the tests and the benchmarks serve.
public enum TestPages {
    /// A CSS animation, a requestAnimationFrame loop and the page's data
    /// fetched again every `seconds`, as a dashboard does.
    public static func dashboard(dataEvery seconds: Double) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><style>
        html, body { margin: 0; height: 100%; background: #112233; overflow: hidden; color: #fff; font: 40px sans-serif }
        .box { position: absolute; left: 40%; top: 30%; width: 20vw; height: 20vw;
               background: linear-gradient(45deg, #f80, #08f); animation: spin 2s linear infinite }
        @keyframes spin { to { transform: rotate(360deg) } }
        </style></head><body><div class="box"></div><div id="v">-</div><ul id="rows"></ul>
        <script>
        let frames = 0;
        function frame() { frames++; requestAnimationFrame(frame); }
        requestAnimationFrame(frame);
        function load() {
          fetch('/data.json?t=' + Date.now()).then(r => r.json()).then(d => {
            document.getElementById('v').textContent = d.v + ' ' + frames;
            const rows = document.getElementById('rows');
            rows.innerHTML = '';
            for (let i = 0; i < 200; i++) { const li = document.createElement('li'); li.textContent = 'row ' + i + ' ' + Math.random(); rows.appendChild(li); }
          }).catch(() => {});
        }
        load();
        setInterval(load, \(Int(seconds * 1000)));
        </script></body></html>
        """
    }
}
