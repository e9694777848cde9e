-- needs: top, base
return top()
