package org.bftws.interop.cxf;

import javax.jws.WebMethod;
import javax.jws.WebParam;
import javax.jws.WebResult;
import javax.jws.WebService;
import javax.jws.soap.SOAPBinding;
import javax.xml.ws.Action;

/** JAX-WS view of the echo sample's append operation (document/literal, bare), as wsdl2java would write it. */
@WebService(name = "EchoPortType", targetNamespace = Append.NS)
@SOAPBinding(parameterStyle = SOAPBinding.ParameterStyle.BARE)
public interface EchoPort {

    @WebMethod(operationName = "append", action = Append.NS + "/append")
    @Action(input = Append.NS + "/append", output = Append.NS + "/appendResponse")
    @WebResult(name = "appendResponse", targetNamespace = Append.NS, partName = "parameters")
    AppendResponse append(@WebParam(name = "append", targetNamespace = Append.NS, partName = "parameters")
                          Append request);
}
