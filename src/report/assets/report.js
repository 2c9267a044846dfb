(function(){
'use strict';
var charts=document.querySelectorAll('script[data-chart]'),done=[];
for(var i=0;i<charts.length;i++){(function(el){
  var id=el.getAttribute('data-chart'),target=document.getElementById(id);
  done.push(vegaEmbed(target,JSON.parse(el.textContent),{actions:false,renderer:'svg'}).catch(function(e){
    console.error('chart '+id+': '+e);target.textContent='This chart could not be drawn: '+e;}));
})(charts[i]);}
function key(td,num){var v=td.hasAttribute('data-v')?td.getAttribute('data-v'):td.textContent;
  if(!num)return v.toLowerCase();var f=parseFloat(v);return isNaN(f)?null:f;}
var tables=document.querySelectorAll('table.sortable');
for(var t=0;t<tables.length;t++){(function(table){
  var ths=table.tHead.rows[0].cells;
  for(var c=0;c<ths.length;c++){(function(th,col){th.addEventListener('click',function(){
    var num=th.getAttribute('data-type')==='num',asc=!th.classList.contains('asc');
    for(var k=0;k<ths.length;k++)ths[k].classList.remove('asc','desc');
    th.classList.add(asc?'asc':'desc');
    var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
    rows.sort(function(a,b){var x=key(a.cells[col],num),y=key(b.cells[col],num);
      if(x===y)return 0;if(x===null)return 1;if(y===null)return -1;return (x<y?-1:1)*(asc?1:-1);});
    for(var r=0;r<rows.length;r++)body.appendChild(rows[r]);});})(ths[c],c);}
})(tables[t]);}
/* Open a diff named in the address once the charts above it have their final size. */
function openHash(){var id=decodeURIComponent(location.hash.slice(1));var d=id&&document.getElementById(id);
  if(d&&d.tagName==='DETAILS'){d.open=true;d.scrollIntoView();}}
window.addEventListener('hashchange',openHash);
Promise.all(done).then(openHash);
})();
